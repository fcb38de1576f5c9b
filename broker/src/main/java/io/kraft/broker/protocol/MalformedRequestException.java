package io.kraft.broker.protocol;

/** The frame's header or body does not parse: truncated, bad lengths, bad tagged fields, trailing bytes. */
public final class MalformedRequestException extends RequestParseException {
    private static final long serialVersionUID = 1L;

    MalformedRequestException(String message, short apiKey, short apiVersion, int correlationId, String clientId) {
        super(message, apiKey, apiVersion, correlationId, clientId);
    }
}
