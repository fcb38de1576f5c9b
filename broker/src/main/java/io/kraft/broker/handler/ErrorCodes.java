package io.kraft.broker.handler;

/** Kafka protocol error codes the handlers answer with (numbers from the public protocol guide). */
public final class ErrorCodes {
    public static final short NONE = 0;
    public static final short UNKNOWN_TOPIC_OR_PARTITION = 3;
    public static final short LEADER_NOT_AVAILABLE = 5;
    public static final short UNSUPPORTED_VERSION = 35;
    public static final short UNKNOWN_TOPIC_ID = 100;

    private ErrorCodes() {
    }
}
