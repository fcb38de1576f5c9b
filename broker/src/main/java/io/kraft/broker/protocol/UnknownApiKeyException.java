package io.kraft.broker.protocol;

/** The request names an API key this broker does not serve. */
public final class UnknownApiKeyException extends RequestParseException {
    private static final long serialVersionUID = 1L;

    UnknownApiKeyException(short apiKey, short apiVersion, int correlationId, String clientId) {
        super("Unknown API key " + apiKey + " (version " + apiVersion + ") from client " + LogText.of(clientId),
                apiKey, apiVersion, correlationId, clientId);
    }
}
