package io.kraft.broker.protocol;

/**
 * Why a request frame could not be turned into a request. Carries what was read of the header so
 * the server can answer (or at least log the client and API) before closing.
 */
public abstract sealed class RequestParseException extends Exception
        permits UnknownApiKeyException, UnsupportedApiVersionException, MalformedRequestException {
    private static final long serialVersionUID = 1L;

    private final short apiKey;
    private final short apiVersion;
    private final int correlationId;
    private final String clientId;

    RequestParseException(String message, short apiKey, short apiVersion, int correlationId, String clientId) {
        super(message);
        this.apiKey = apiKey;
        this.apiVersion = apiVersion;
        this.correlationId = correlationId;
        this.clientId = clientId;
    }

    /** The raw api key, or -1 when the frame was too short to hold one. */
    public short apiKey() {
        return apiKey;
    }

    public short apiVersion() {
        return apiVersion;
    }

    /** The correlation id, or -1 when the frame was too short to hold one. */
    public int correlationId() {
        return correlationId;
    }

    /** The client id when it could be read, else null. */
    public String clientId() {
        return clientId;
    }
}
