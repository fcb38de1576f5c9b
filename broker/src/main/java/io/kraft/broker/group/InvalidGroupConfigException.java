package io.kraft.broker.group;

/** A group coordinator setting that cannot be used, naming the setting and the value. */
public final class InvalidGroupConfigException extends RuntimeException {
    public InvalidGroupConfigException(String message) {
        super(message);
    }
}
