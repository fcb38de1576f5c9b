package io.kraft.broker.network;

/** A wire-server setting (listeners, limits, pool sizes) has a value the server cannot use. */
public final class InvalidServerConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidServerConfigException(String message) {
        super(message);
    }
}
