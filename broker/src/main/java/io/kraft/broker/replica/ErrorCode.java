package io.kraft.broker.replica;

/** The Kafka protocol error codes of the data path (numbers from the public protocol guide). */
public enum ErrorCode {
    UNKNOWN_SERVER_ERROR(-1),
    NONE(0),
    OFFSET_OUT_OF_RANGE(1),
    CORRUPT_MESSAGE(2),
    UNKNOWN_TOPIC_OR_PARTITION(3),
    LEADER_NOT_AVAILABLE(5),
    NOT_LEADER_OR_FOLLOWER(6),
    REQUEST_TIMED_OUT(7),
    MESSAGE_TOO_LARGE(10),
    INVALID_TOPIC_EXCEPTION(17),
    RECORD_LIST_TOO_LARGE(18),
    NOT_ENOUGH_REPLICAS(19),
    NOT_ENOUGH_REPLICAS_AFTER_APPEND(20),
    INVALID_REQUIRED_ACKS(21),
    INVALID_TIMESTAMP(32),
    UNSUPPORTED_VERSION(35),
    INVALID_REQUEST(42),
    POLICY_VIOLATION(44),
    OUT_OF_ORDER_SEQUENCE_NUMBER(45),
    DUPLICATE_SEQUENCE_NUMBER(46),
    INVALID_PRODUCER_EPOCH(47),
    KAFKA_STORAGE_ERROR(56),
    UNKNOWN_PRODUCER_ID(59),
    FETCH_SESSION_ID_NOT_FOUND(70),
    INVALID_FETCH_SESSION_EPOCH(71),
    FENCED_LEADER_EPOCH(74),
    UNKNOWN_LEADER_EPOCH(75),
    INVALID_RECORD(87),
    UNKNOWN_TOPIC_ID(100),
    INCONSISTENT_TOPIC_ID(103);

    private final short code;

    ErrorCode(int code) {
        this.code = (short) code;
    }

    public short code() {
        return code;
    }
}
