package io.kraft.cli.acls;

/** Options of {@code kraft-cli acls} that do not make a request; the message names the problem in one line. */
public final class AclOptionsException extends RuntimeException {
    public AclOptionsException(String message) {
        super(message);
    }
}
