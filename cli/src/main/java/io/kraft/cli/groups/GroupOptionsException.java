package io.kraft.cli.groups;

/**
 * The options of a {@code groups} command line contradict each other or a value is malformed (two reset
 * strategies, a bad --to-datetime); the message is the one line printed after "Error: ".
 */
public final class GroupOptionsException extends IllegalArgumentException {
    public GroupOptionsException(String message) {
        super(message);
    }
}
