package io.kraft.metadata.authorizer;

import java.util.Locale;

/**
 * Kafka's ACL operations with their wire codes. ALL grants every operation; an ALLOW of READ, WRITE, DELETE or ALTER
 * also allows DESCRIBE, and one of ALTER_CONFIGS also DESCRIBE_CONFIGS (DENY implies nothing). UNKNOWN and ANY appear
 * only in filters.
 */
public enum AclOperation {
    UNKNOWN(0), ANY(1), ALL(2), READ(3), WRITE(4), CREATE(5), DELETE(6), ALTER(7), DESCRIBE(8), CLUSTER_ACTION(9),
    DESCRIBE_CONFIGS(10), ALTER_CONFIGS(11), IDEMPOTENT_WRITE(12), CREATE_TOKENS(13), DESCRIBE_TOKENS(14),
    TWO_PHASE_COMMIT(15);

    private static final AclOperation[] BY_CODE = values();

    private final byte code;

    AclOperation(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    public static AclOperation fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }

    /** Whether an ACL may name this operation (not UNKNOWN or ANY). */
    public boolean isConcrete() {
        return this != UNKNOWN && this != ANY;
    }

    /** Whether an ALLOW ACL of this operation allows {@code requested}. */
    public boolean allows(AclOperation requested) {
        if (this == ALL || this == requested) {
            return true;
        }
        return switch (requested) {
            case DESCRIBE -> this == READ || this == WRITE || this == DELETE || this == ALTER;
            case DESCRIBE_CONFIGS -> this == ALTER_CONFIGS;
            default -> false;
        };
    }

    /** Whether a DENY ACL of this operation denies {@code requested}: only the operation itself or ALL. */
    public boolean denies(AclOperation requested) {
        return this == ALL || this == requested;
    }

    /** Parses Kafka's name of an operation, case-insensitively ("Read", "IdempotentWrite", "CLUSTER_ACTION"). */
    public static AclOperation parse(String text) {
        String normalized = text.replace("_", "").toUpperCase(Locale.ROOT);
        for (AclOperation op : BY_CODE) {
            if (op.name().replace("_", "").equals(normalized)) {
                return op;
            }
        }
        return UNKNOWN;
    }

    /** Kafka's display name (Read, IdempotentWrite, ...). */
    public String displayName() {
        return AclNames.camel(name());
    }
}
