package io.kraft.server.grpc;

import io.kraft.metadata.controller.ControllerException;
import io.kraft.storage.errors.Errors;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * What one attempt of a control-plane RPC at one controller came to: an answer, the active controller's refusal
 * (final), or a redirect to another controller (retried by {@link GrpcControllerClient}).
 */
sealed interface ControllerAttempt<T> {
    /** The controller answered (a value, or null for requests that answer nothing). */
    record Answered<T>(T value) implements ControllerAttempt<T> {
    }

    /** The active controller refused the request: final. */
    record Refused<T>(ControllerException error) implements ControllerAttempt<T> {
    }

    /** Not the active controller, or unreachable: try {@code hint} if present, else another voter. */
    record Redirect<T>(OptionalInt hint, String reason) implements ControllerAttempt<T> {
    }

    /** An answer's error code: NONE gives the value, NOT_CONTROLLER redirects, anything else is the refusal. */
    static <T> ControllerAttempt<T> decode(int errorCode, String errorMessage, boolean hasHint, int hint,
                                           Supplier<T> value) {
        if (errorCode == Errors.NONE.code()) {
            return new Answered<>(value.get());
        }
        if (errorCode == Errors.NOT_CONTROLLER.code()) {
            return new Redirect<>(hasHint ? OptionalInt.of(hint) : OptionalInt.empty(), errorMessage);
        }
        return new Refused<>(new ControllerException(GrpcControllerClient.errorFor(errorCode), errorMessage.isEmpty() ? null : errorMessage));
    }
}
