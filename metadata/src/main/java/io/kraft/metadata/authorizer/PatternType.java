package io.kraft.metadata.authorizer;

/**
 * How an ACL's resource name matches (KIP-290): LITERAL (the name, or every resource for {@code *}) or PREFIXED
 * (every name starting with it). ANY and MATCH appear only in filters: ANY matches patterns of any type with the
 * same name, MATCH the patterns that would apply to a resource of that name.
 */
public enum PatternType {
    UNKNOWN(0), ANY(1), MATCH(2), LITERAL(3), PREFIXED(4);

    private static final PatternType[] BY_CODE = values();

    private final byte code;

    PatternType(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    public static PatternType fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }

    /** Whether an ACL may have this pattern type (LITERAL or PREFIXED). */
    public boolean isSpecific() {
        return this == LITERAL || this == PREFIXED;
    }

    public static PatternType parse(String text) {
        for (PatternType type : BY_CODE) {
            if (type.name().equalsIgnoreCase(text)) {
                return type;
            }
        }
        return UNKNOWN;
    }
}
