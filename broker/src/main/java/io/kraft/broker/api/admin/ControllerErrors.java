package io.kraft.broker.api.admin;

import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.storage.errors.Errors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits for a controller answer and turns its failure into the error code and message a response carries. */
final class ControllerErrors {
    private ControllerErrors() {
    }

    /** The answer, or the error the controller failed with, waiting at most {@code timeoutMs}. */
    static <T> Outcome<T> await(CompletableFuture<T> answer, long timeoutMs) {
        try {
            return new Outcome<>(answer.get(Math.max(timeoutMs, 1), TimeUnit.MILLISECONDS), Errors.NONE.code(), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(Errors.UNKNOWN_SERVER_ERROR.code(), "interrupted while waiting for the controller");
        } catch (TimeoutException e) {
            return failed(Errors.REQUEST_TIMED_OUT.code(), "the controller did not answer within " + timeoutMs + " ms");
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ControllerException ce) {
                ApiError error = ce.apiError();
                return failed(error.error().code(), error.message());
            }
            return failed(Errors.UNKNOWN_SERVER_ERROR.code(), String.valueOf(cause));
        }
    }

    private static <T> Outcome<T> failed(short errorCode, String message) {
        return new Outcome<>(null, errorCode, message);
    }

    /** A controller answer: the value on success, else an error code and message. */
    record Outcome<T>(T value, short errorCode, String errorMessage) {
        boolean succeeded() {
            return errorCode == Errors.NONE.code();
        }
    }
}
