package io.kraft.metadata.sim;

/** A broken safety property, with the seed, time, cluster state and last events to replay and debug it. */
final class InvariantViolation extends AssertionError {
    private static final long serialVersionUID = 1L;

    InvariantViolation(String message) {
        super(message);
    }
}
