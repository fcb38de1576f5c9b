package io.kraft.cli.partitions;

/** A JSON plan or option a partition command cannot use; its message is the one line the user sees. */
public final class PlanException extends RuntimeException {
    public PlanException(String message) {
        super(message);
    }
}
