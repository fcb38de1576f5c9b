package io.kraft.broker.protocol.codec;

/** Thrown when bytes on the wire do not form a valid message for the schema and version being read. */
public final class MalformedMessageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedMessageException(String message) {
        super(message);
    }
}
