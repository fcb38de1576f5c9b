package io.kraft.storage.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.CompletionException;
import org.apache.kafka.common.errors.RetriableException;
import org.junit.jupiter.api.Test;

/** Our error codes are Kafka's: same names, numbers and retriability as kafka-clients' own table. */
class ErrorsTest {

    @Test
    void everyCodeMatchesKafkaClients() {
        for (Errors ours : Errors.values()) {
            org.apache.kafka.common.protocol.Errors kafka = org.apache.kafka.common.protocol.Errors.forCode(ours.code());
            assertEquals(ours.name(), kafka.name(), "code " + ours.code());
            assertEquals(kafka.exception() instanceof RetriableException, ours.isRetriable(), ours.name());
        }
        assertEquals(org.apache.kafka.common.protocol.Errors.values().length, Errors.values().length,
                "every code kafka-clients knows is declared");
    }

    @Test
    void codesMapBackAndUnknownCodesAreUnknownServerErrors() {
        for (Errors error : Errors.values()) {
            assertSame(error, Errors.forCode(error.code()));
        }
        assertSame(Errors.UNKNOWN_SERVER_ERROR, Errors.forCode((short) 30_000));
        assertSame(Errors.UNKNOWN_SERVER_ERROR, Errors.forCode((short) -7));
    }

    @Test
    void failuresMapThroughTheirOwnCodeEvenWhenWrapped() {
        ApiException failure = new ApiException(Errors.NOT_CONTROLLER, "not the controller");
        assertSame(Errors.NOT_CONTROLLER, Errors.forException(failure));
        assertSame(Errors.NOT_CONTROLLER, Errors.forException(new CompletionException(failure)));
        assertSame(Errors.UNKNOWN_SERVER_ERROR, Errors.forException(new IllegalStateException("bug")));
        assertSame(Errors.UNKNOWN_SERVER_ERROR, Errors.forException(new RuntimeException(failure)));
    }
}
