package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.storage.errors.Errors;
import java.util.List;

/** The steps the transaction coordinator's tests take on a {@link ControllerTestEnv}. */
final class TransactionSteps {
    private TransactionSteps() {
    }

    /** InitProducerId of a transactional id, committed; fails the test unless it succeeded. */
    static TransactionalProducer init(ControllerTestEnv env, String id, int timeoutMs) {
        ControllerResult<TransactionalProducer> result = env.commit(env.managers.transactions().initProducerId(id,
                timeoutMs, -1, (short) -1, env.nowMs));
        assertTrue(result.isSuccess(), result.error().toString());
        assertEquals(Errors.NONE, result.response().error());
        return result.response();
    }

    /** A leader's report of markers written for the producer's decided transaction (not committed). */
    static ControllerResult<Void> report(ControllerTestEnv env, String id, TransactionalProducer p, boolean commit,
                                         TopicIdPartition... partitions) {
        return env.managers.transactions().markersWritten(new TransactionMarkersWritten(1, 1, id, p.producerId(),
                p.producerEpoch(), commit, List.of(partitions)), env.nowMs);
    }

    /** The request failed with {@code expected} and wrote nothing. */
    static void assertUnchangedAfter(ControllerResult<?> result, Errors expected) {
        assertFalse(result.isSuccess(), "expected " + expected);
        assertEquals(expected, result.error().error(), result.error().toString());
        assertTrue(result.records().isEmpty());
    }
}
