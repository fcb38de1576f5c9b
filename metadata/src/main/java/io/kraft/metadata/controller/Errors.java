package io.kraft.metadata.controller;

/** The errors the controller answers with, each carrying Kafka's numeric error code for the wire. */
public enum Errors {
    UNKNOWN_SERVER_ERROR(-1),
    NONE(0),
    UNKNOWN_TOPIC_OR_PARTITION(3),
    NOT_LEADER_OR_FOLLOWER(6),
    INVALID_TOPIC_EXCEPTION(17),
    TOPIC_ALREADY_EXISTS(36),
    INVALID_PARTITIONS(37),
    INVALID_REPLICATION_FACTOR(38),
    INVALID_REPLICA_ASSIGNMENT(39),
    INVALID_CONFIG(40),
    NOT_CONTROLLER(41),
    INVALID_REQUEST(42),
    FENCED_LEADER_EPOCH(74),
    UNKNOWN_LEADER_EPOCH(75),
    STALE_BROKER_EPOCH(77),
    INVALID_UPDATE_VERSION(95),
    UNKNOWN_TOPIC_ID(100),
    DUPLICATE_BROKER_REGISTRATION(101),
    BROKER_ID_NOT_REGISTERED(102),
    INCONSISTENT_CLUSTER_ID(104),
    INELIGIBLE_REPLICA(107);

    private final short code;

    Errors(int code) {
        this.code = (short) code;
    }

    /** Kafka's error code, as sent in responses. */
    public short code() {
        return code;
    }
}
