package io.kraft.cli.shell;

/** The metadata shell cannot load what it was pointed at; the message is one line saying what and why. */
public final class MetadataShellException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MetadataShellException(String message) {
        super(message);
    }

    public MetadataShellException(String message, Throwable cause) {
        super(message, cause);
    }
}
