package io.kraft.broker.api.admin;

import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Turns a controller answer into what a response entry carries (the value, or an error code and message), bounded
 * by the request's wait without holding a thread: the timeout runs on the JDK's shared delay scheduler.
 */
final class ControllerErrors {
    private ControllerErrors() {
    }

    /**
     * The answer as an outcome that never fails: the controller's error, or REQUEST_TIMED_OUT when it has not
     * answered within {@code timeoutMs} (at least 1 ms, so an answer already there is taken even with 0).
     */
    static <T> CompletableFuture<Outcome<T>> outcome(CompletableFuture<T> answer, long timeoutMs) {
        // A copy carries the timeout: the controller's own future must not be completed by a broker deadline.
        return answer.copy()
                .orTimeout(Math.max(timeoutMs, 1), TimeUnit.MILLISECONDS)
                .handle((value, failure) -> failure == null
                        ? new Outcome<>(value, Errors.NONE.code(), null)
                        : failed(failure, timeoutMs));
    }

    /** Every outcome, in order, once the last one is known. */
    static <T> CompletableFuture<List<Outcome<T>>> all(List<CompletableFuture<Outcome<T>>> outcomes) {
        return CompletableFuture.allOf(outcomes.toArray(new CompletableFuture<?>[0]))
                .thenApply(done -> outcomes.stream().map(CompletableFuture::join).toList());
    }

    private static <T> Outcome<T> failed(Throwable failure, long timeoutMs) {
        // The copy hands on the controller's failure wrapped in a CompletionException, while orTimeout completes
        // it with a bare TimeoutException: only the latter is this request's own deadline.
        if (failure instanceof TimeoutException) {
            return new Outcome<>(null, Errors.REQUEST_TIMED_OUT.code(),
                    "the controller did not answer within " + timeoutMs + " ms");
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause instanceof ControllerException ce) {
            ApiError error = ce.apiError();
            return new Outcome<>(null, error.error().code(), error.message());
        }
        return new Outcome<>(null, Errors.UNKNOWN_SERVER_ERROR.code(), String.valueOf(cause));
    }

    /** A controller answer: the value on success, else an error code and message. */
    record Outcome<T>(T value, short errorCode, String errorMessage) {
        boolean succeeded() {
            return errorCode == Errors.NONE.code();
        }
    }
}
