package io.kraft.raft.sim;

/** A broken safety property, with enough context (seed, time, event, nodes) to replay and debug it. */
final class InvariantViolation extends AssertionError {
    InvariantViolation(String message) {
        super(message);
    }
}
