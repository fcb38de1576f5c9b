package io.kraft.cli;

/** {@code format} found a directory already formatted and was not told to skip it. */
final class AlreadyFormattedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    AlreadyFormattedException(String message) {
        super(message);
    }
}
