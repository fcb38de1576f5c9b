package io.kraft.broker.api.admin;

import io.kraft.storage.errors.Errors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The error code and message an AddRaftVoter or RemoveRaftVoter answer carries, from the quorum leader's answer. */
record VoterChangeOutcome(Errors error, String message) {

    /**
     * The leader's answer, or REQUEST_TIMED_OUT once {@code timeoutMs} passed (the change may still commit later, as
     * KIP-853 allows); never fails.
     */
    static CompletableFuture<VoterChangeOutcome> of(CompletableFuture<Void> change, long timeoutMs) {
        return change.copy().orTimeout(Math.max(timeoutMs, 1), TimeUnit.MILLISECONDS).handle((done, failure) -> {
            if (failure == null) {
                return new VoterChangeOutcome(Errors.NONE, null);
            }
            if (failure instanceof TimeoutException) {
                return new VoterChangeOutcome(Errors.REQUEST_TIMED_OUT,
                        "the voter change did not commit within " + timeoutMs + " ms");
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            return new VoterChangeOutcome(Errors.forException(cause), cause.getMessage());
        });
    }
}
