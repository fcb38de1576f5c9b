package io.kraft.broker.replica;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;

/** A partition-level request failure that maps to one Kafka error code (e.g. this broker does not lead it). */
public class ReplicaException extends ApiException {
    private static final long serialVersionUID = 1L;

    public ReplicaException(Errors error, String message) {
        super(error, message);
    }
}
