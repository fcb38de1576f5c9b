package io.kraft.cli.quorum;

/** A controller answered, but the quorum could not be described (no leader elected, an error code). */
public final class QuorumUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public QuorumUnavailableException(String message) {
        super(message);
    }
}
