package io.kraft.metadata.authorizer;

/** Kafka's ACL resource types, with their wire codes; UNKNOWN and ANY appear only in filters and errors. */
public enum ResourceType {
    UNKNOWN(0), ANY(1), TOPIC(2), GROUP(3), CLUSTER(4), TRANSACTIONAL_ID(5), DELEGATION_TOKEN(6), USER(7);

    private static final ResourceType[] BY_CODE = values();

    private final byte code;

    ResourceType(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    /** The type of a wire code; UNKNOWN for a code this broker does not know. */
    public static ResourceType fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }

    /** Whether an ACL may name this type (not UNKNOWN or ANY). */
    public boolean isConcrete() {
        return this != UNKNOWN && this != ANY;
    }

    /** Parses Kafka's name of a type, case-insensitively ("Topic", "TRANSACTIONAL_ID", "TransactionalId"). */
    public static ResourceType parse(String text) {
        String normalized = text.replace("_", "").toUpperCase(java.util.Locale.ROOT);
        for (ResourceType type : BY_CODE) {
            if (type.name().replace("_", "").equals(normalized)) {
                return type;
            }
        }
        return UNKNOWN;
    }

    /** Kafka's display name, as kafka-acls.sh prints it (Topic, Group, Cluster, TransactionalId, ...). */
    public String displayName() {
        return AclNames.camel(name());
    }
}
