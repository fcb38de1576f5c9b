package io.kraft.metadata;

/**
 * A metadata record cannot be applied: an unknown record type or version, or a record that contradicts
 * the state it is replayed onto (a partition of an unknown topic, a fence with another broker epoch).
 * Committed records come from a validating controller, so this signals a bug or a corrupt log.
 */
public final class InvalidMetadataRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidMetadataRecordException(String message) {
        super(message);
    }
}
