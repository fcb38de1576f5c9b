package io.kraft.cli.groups;

/**
 * A consumer-group command could not do what was asked (no such group, group not empty, no committed offset to
 * shift from, unknown topic); the message is the one line printed after "Error: ".
 */
public final class GroupCommandException extends RuntimeException {
    public GroupCommandException(String message) {
        super(message);
    }
}
