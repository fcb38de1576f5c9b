package io.kraft.broker.group;

/** The Kafka error codes the group coordinator answers with (numbers from the public protocol guide). */
public enum GroupError {
    UNKNOWN_SERVER_ERROR(-1),
    NONE(0),
    UNKNOWN_TOPIC_OR_PARTITION(3),
    OFFSET_METADATA_TOO_LARGE(12),
    COORDINATOR_LOAD_IN_PROGRESS(14),
    COORDINATOR_NOT_AVAILABLE(15),
    NOT_COORDINATOR(16),
    ILLEGAL_GENERATION(22),
    INCONSISTENT_GROUP_PROTOCOL(23),
    INVALID_GROUP_ID(24),
    UNKNOWN_MEMBER_ID(25),
    INVALID_SESSION_TIMEOUT(26),
    REBALANCE_IN_PROGRESS(27),
    INVALID_COMMIT_OFFSET_SIZE(28),
    INVALID_REQUEST(42),
    NON_EMPTY_GROUP(68),
    GROUP_ID_NOT_FOUND(69),
    MEMBER_ID_REQUIRED(79),
    GROUP_MAX_SIZE_REACHED(81),
    FENCED_INSTANCE_ID(82),
    GROUP_SUBSCRIBED_TO_TOPIC(86),
    UNSTABLE_OFFSET_COMMIT(88);

    private final short code;

    GroupError(int code) {
        this.code = (short) code;
    }

    /** The code sent on the wire. */
    public short code() {
        return code;
    }
}
