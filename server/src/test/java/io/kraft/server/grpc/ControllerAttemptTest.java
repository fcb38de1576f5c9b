package io.kraft.server.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kraft.storage.errors.Errors;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** How a controller's answer is read: its value, a redirect to another controller, or a final refusal. */
class ControllerAttemptTest {
    @Test
    void noErrorGivesTheValue() {
        assertEquals(new ControllerAttempt.Answered<>("value"),
                ControllerAttempt.decode(Errors.NONE.code(), "", false, 0, () -> "value"));
    }

    @Test
    void notControllerRedirectsWithTheHintItCarries() {
        assertEquals(new ControllerAttempt.Redirect<String>(OptionalInt.of(3), "not me"),
                ControllerAttempt.decode(Errors.NOT_CONTROLLER.code(), "not me", true, 3, () -> "unused"));
        assertEquals(new ControllerAttempt.Redirect<String>(OptionalInt.empty(), "no leader"),
                ControllerAttempt.decode(Errors.NOT_CONTROLLER.code(), "no leader", false, 3, () -> "unused"));
    }

    @Test
    void anyOtherErrorIsARefusalWithItsMessage() {
        ControllerAttempt<String> refused = ControllerAttempt.decode(Errors.TOPIC_ALREADY_EXISTS.code(), "exists",
                false, 0, () -> "unused");
        ControllerAttempt.Refused<String> refusal = (ControllerAttempt.Refused<String>) refused;
        assertEquals(Errors.TOPIC_ALREADY_EXISTS, refusal.error().apiError().error());
        assertEquals("exists", refusal.error().apiError().message());
        ControllerAttempt.Refused<String> silent = (ControllerAttempt.Refused<String>) ControllerAttempt.decode(
                Errors.INVALID_REQUEST.code(), "", false, 0, () -> "unused");
        assertNull(silent.error().apiError().message(), "an empty message is none");
    }
}
