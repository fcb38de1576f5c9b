package io.kraft.broker.api.txn;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;
import java.util.concurrent.CompletionException;

/**
 * Maps what the transaction coordinator (the active controller) answered to the error a client of one API version
 * expects: PRODUCER_FENCED exists only from the versions of KIP-588, older ones get INVALID_PRODUCER_EPOCH; a
 * controller that cannot be reached is COORDINATOR_LOAD_IN_PROGRESS, which every transactional client retries.
 */
public final class TransactionErrors {
    private TransactionErrors() {
    }

    /** The error of a failed controller call (unwrapping CompletionException). */
    public static Errors of(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause instanceof ApiException api) {
            return api.error();
        }
        return Errors.UNKNOWN_SERVER_ERROR;
    }

    /**
     * The error to answer with.
     *
     * @param producerFencedSince the first version of the API that knows PRODUCER_FENCED
     */
    public static Errors forClient(Errors error, short version, int producerFencedSince) {
        return switch (error) {
            case PRODUCER_FENCED -> version >= producerFencedSince ? Errors.PRODUCER_FENCED
                    : Errors.INVALID_PRODUCER_EPOCH;
            case NOT_CONTROLLER, REQUEST_TIMED_OUT -> Errors.COORDINATOR_LOAD_IN_PROGRESS;
            default -> error;
        };
    }
}
