package io.kraft.cli.quorum;

/** No controller could be reached to describe the quorum (connection refused, unknown host, timeout). */
public final class ControllerUnreachableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ControllerUnreachableException(String message) {
        super(message);
    }
}
