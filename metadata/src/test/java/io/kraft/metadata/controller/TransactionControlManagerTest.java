package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TransactionMetadata;
import io.kraft.metadata.image.TransactionState;
import io.kraft.metadata.image.TransactionsImage;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every transition of the transaction coordinator's state machine, driven by hand on a controller's view. */
class TransactionControlManagerTest {
    private static final int TIMEOUT_MS = 60_000;

    private ControllerTestEnv env;
    private TransactionControlManager txns;
    private UUID topicA;
    private UUID offsetsTopic;

    @BeforeEach
    void setUp() {
        env = new ControllerTestEnv();
        env.startBroker(1, null);
        topicA = env.commit(env.managers.createTopic(new CreateTopicRequest("a", 3, 1, Map.of(), Map.of())))
                .response().topicId();
        offsetsTopic = env.commit(env.managers.createTopic(new CreateTopicRequest("__consumer_offsets", 2, 1,
                Map.of(), Map.of()))).response().topicId();
        txns = env.managers.transactions();
    }

    @Test
    void aNewIdGetsTheNextProducerIdAtEpochZeroAndAnotherIdTheOneAfter() {
        long next = env.image.producerIds().nextProducerId();
        TransactionalProducer first = init("t1");
        TransactionalProducer second = init("t2");
        assertEquals(TransactionalProducer.of(next, (short) 0), first);
        assertEquals(TransactionalProducer.of(next + 1, (short) 0), second);
        assertEquals(next + 2, env.image.producerIds().nextProducerId());
        assertEquals(TransactionState.EMPTY, state("t1").state());
        assertEquals(TIMEOUT_MS, state("t1").timeoutMs());
    }

    @Test
    void initAgainBumpsTheEpochAndKeepsThePreviousForRetries() {
        TransactionalProducer first = init("t");
        TransactionalProducer second = init("t");
        assertEquals(first.producerId(), second.producerId());
        assertEquals(1, second.producerEpoch());
        assertEquals(first.producerId(), state("t").previousProducerId());
        assertEquals(0, state("t").previousProducerEpoch());
    }

    @Test
    void kip360BumpWithTheCurrentEpochAndItsRetryAreAnsweredAlikeAndAStaleEpochIsFenced() {
        TransactionalProducer first = init("t");
        TransactionalProducer bumped = env.commit(txns.initProducerId("t", TIMEOUT_MS, first.producerId(),
                first.producerEpoch(), env.nowMs)).response();
        assertEquals(1, bumped.producerEpoch());
        ControllerResult<TransactionalProducer> retry = txns.initProducerId("t", TIMEOUT_MS, first.producerId(),
                first.producerEpoch(), env.nowMs);
        assertTrue(retry.records().isEmpty());
        assertEquals(bumped, retry.response());
        assertUnchangedAfter(txns.initProducerId("t", TIMEOUT_MS, first.producerId(), (short) 7, env.nowMs),
                Errors.PRODUCER_FENCED);
        assertUnchangedAfter(txns.initProducerId("unknown", TIMEOUT_MS, 5, (short) 0, env.nowMs),
                Errors.INVALID_PRODUCER_ID_MAPPING);
    }

    @Test
    void aKip360BumpDuringAnOpenTransactionAbortsItThenBumpsOnTheRetry() {
        TransactionalProducer p = init("t");
        env.commit(txns.addPartitions("t", p.producerId(), p.producerEpoch(), Map.of("a", List.of(0)), env.nowMs));
        ControllerResult<TransactionalProducer> first = env.commit(txns.initProducerId("t", TIMEOUT_MS,
                p.producerId(), p.producerEpoch(), env.nowMs));
        assertEquals(Errors.CONCURRENT_TRANSACTIONS, first.response().error());
        env.commit(report("t", TransactionalProducer.of(p.producerId(), (short) 1), false, tp(topicA, 0)));
        assertEquals(TransactionState.COMPLETE_ABORT, state("t").state());
        ControllerResult<TransactionalProducer> retry = env.commit(txns.initProducerId("t", TIMEOUT_MS,
                p.producerId(), p.producerEpoch(), env.nowMs));
        assertEquals(TransactionalProducer.of(p.producerId(), (short) 2), retry.response());
        // The epoch it left behind is fenced now.
        assertUnchangedAfter(txns.initProducerId("t", TIMEOUT_MS, p.producerId(), p.producerEpoch(), env.nowMs),
                Errors.PRODUCER_FENCED);
    }

    @Test
    void anExhaustedEpochMovesTheIdToANewProducerId() {
        TransactionalProducer first = init("t");
        TransactionMetadata atMax = new TransactionMetadata("t", first.producerId(),
                TransactionControlManager.MAX_PRODUCER_EPOCH, -1, (short) -1, TIMEOUT_MS, TransactionState.EMPTY,
                Set.of(), Set.of(), -1, env.nowMs, 0);
        env.replay(List.of(atMax.toRecord()));
        long next = env.image.producerIds().nextProducerId();
        TransactionalProducer moved = init("t");
        assertEquals(TransactionalProducer.of(next, (short) 0), moved);
        assertEquals(first.producerId(), state("t").previousProducerId());
        assertEquals(TransactionControlManager.MAX_PRODUCER_EPOCH, state("t").previousProducerEpoch());
    }

    @Test
    void aCommitGoesOngoingThenPrepareCommitThenCompleteCommitOnceEveryPartitionIsReported() {
        TransactionalProducer p = init("t");
        env.nowMs = 5_000;
        Map<String, Map<Integer, Errors>> added = env.commit(txns.addPartitions("t", p.producerId(),
                p.producerEpoch(), Map.of("a", List.of(0, 1)), env.nowMs)).response();
        assertEquals(Map.of("a", Map.of(0, Errors.NONE, 1, Errors.NONE)), added);
        assertEquals(TransactionState.ONGOING, state("t").state());
        assertEquals(5_000, state("t").startTimeMs());
        // Adding a partition already in the transaction writes nothing; the group's offsets partition joins.
        assertTrue(txns.addPartitions("t", p.producerId(), p.producerEpoch(), Map.of("a", List.of(1)), env.nowMs)
                .records().isEmpty());
        env.commit(txns.addOffsets("t", p.producerId(), p.producerEpoch(), "g", "__consumer_offsets", 1, env.nowMs));
        assertEquals(Set.of(tp(topicA, 0), tp(topicA, 1), tp(offsetsTopic, 1)), state("t").partitions());
        assertEquals(Set.of("g"), state("t").groups());

        assertTrue(env.commit(txns.endTransaction("t", p.producerId(), p.producerEpoch(), true, env.nowMs))
                .isSuccess());
        assertEquals(TransactionState.PREPARE_COMMIT, state("t").state());
        assertEquals(1, state("t").coordinatorEpoch(), "the epoch of the record that decided it");
        assertUnchangedAfter(txns.endTransaction("t", p.producerId(), p.producerEpoch(), true, env.nowMs),
                Errors.CONCURRENT_TRANSACTIONS);
        assertUnchangedAfter(txns.endTransaction("t", p.producerId(), p.producerEpoch(), false, env.nowMs),
                Errors.INVALID_TXN_STATE);
        assertUnchangedAfter(txns.addPartitions("t", p.producerId(), p.producerEpoch(), Map.of("a", List.of(2)),
                env.nowMs), Errors.CONCURRENT_TRANSACTIONS);
        assertUnchangedAfter(txns.initProducerId("t", TIMEOUT_MS, -1, (short) -1, env.nowMs),
                Errors.CONCURRENT_TRANSACTIONS);

        assertTrue(env.commit(report("t", p, true, tp(topicA, 0), tp(topicA, 1))).records().isEmpty());
        assertEquals(TransactionState.PREPARE_COMMIT, state("t").state());
        // A report for another epoch or decision is stale.
        assertTrue(txns.markersWritten(new TransactionMarkersWritten(1, 1, "t", p.producerId(), (short) 9, true,
                List.of(tp(offsetsTopic, 1))), env.nowMs).records().isEmpty());
        assertTrue(txns.markersWritten(new TransactionMarkersWritten(1, 1, "t", p.producerId(), p.producerEpoch(),
                false, List.of(tp(offsetsTopic, 1))), env.nowMs).records().isEmpty());
        assertFalse(env.commit(report("t", p, true, tp(offsetsTopic, 1))).records().isEmpty());
        TransactionMetadata complete = state("t");
        assertEquals(TransactionState.COMPLETE_COMMIT, complete.state());
        assertEquals(Set.of(), complete.partitions());
        assertEquals(p.producerEpoch(), complete.producerEpoch(), "version 1 keeps the epoch on commit");

        ControllerResult<TransactionalProducer> retried = txns.endTransaction("t", p.producerId(), p.producerEpoch(),
                true, env.nowMs);
        assertTrue(retried.isSuccess() && retried.records().isEmpty());
        assertUnchangedAfter(txns.endTransaction("t", p.producerId(), p.producerEpoch(), false, env.nowMs),
                Errors.INVALID_TXN_STATE);
        // The next transaction starts from an empty partition set.
        env.commit(txns.addPartitions("t", p.producerId(), p.producerEpoch(), Map.of("a", List.of(2)), env.nowMs));
        assertEquals(Set.of(tp(topicA, 2)), state("t").partitions());
    }

    @Test
    void initWithAnOpenTransactionAbortsItAtABumpedEpochAndAnswersConcurrentTransactions() {
        TransactionalProducer zombie = init("t");
        env.commit(txns.addPartitions("t", zombie.producerId(), zombie.producerEpoch(), Map.of("a", List.of(0)),
                env.nowMs));
        ControllerResult<TransactionalProducer> fencing = env.commit(txns.initProducerId("t", TIMEOUT_MS, -1,
                (short) -1, env.nowMs));
        assertEquals(Errors.CONCURRENT_TRANSACTIONS, fencing.response().error());
        assertEquals(TransactionState.PREPARE_ABORT, state("t").state());
        assertEquals(1, state("t").producerEpoch());
        // The zombie is fenced everywhere.
        assertUnchangedAfter(txns.endTransaction("t", zombie.producerId(), zombie.producerEpoch(), true, env.nowMs),
                Errors.PRODUCER_FENCED);
        assertUnchangedAfter(txns.addPartitions("t", zombie.producerId(), zombie.producerEpoch(),
                Map.of("a", List.of(1)), env.nowMs), Errors.PRODUCER_FENCED);
        env.commit(report("t", TransactionalProducer.of(zombie.producerId(), (short) 1), false, tp(topicA, 0)));
        assertEquals(TransactionState.COMPLETE_ABORT, state("t").state());
        assertEquals(TransactionalProducer.of(zombie.producerId(), (short) 2), init("t"));
    }

    @Test
    void badInputGetsItsErrorAndChangesNothing() {
        TransactionalProducer p = init("t");
        assertUnchangedAfter(txns.endTransaction("unknown", p.producerId(), p.producerEpoch(), true, env.nowMs),
                Errors.INVALID_PRODUCER_ID_MAPPING);
        assertUnchangedAfter(txns.endTransaction("t", p.producerId() + 100, p.producerEpoch(), true, env.nowMs),
                Errors.INVALID_PRODUCER_ID_MAPPING);
        assertUnchangedAfter(txns.endTransaction("t", p.producerId(), (short) (p.producerEpoch() - 1), true,
                env.nowMs), Errors.PRODUCER_FENCED);
        assertUnchangedAfter(txns.endTransaction("t", p.producerId(), p.producerEpoch(), true, env.nowMs),
                Errors.INVALID_TXN_STATE);
        assertUnchangedAfter(txns.initProducerId("t", 900_001, -1, (short) -1, env.nowMs),
                Errors.INVALID_TRANSACTION_TIMEOUT);
        assertUnchangedAfter(txns.initProducerId("t", 0, -1, (short) -1, env.nowMs),
                Errors.INVALID_TRANSACTION_TIMEOUT);
        assertUnchangedAfter(txns.initProducerId("", TIMEOUT_MS, -1, (short) -1, env.nowMs), Errors.INVALID_REQUEST);
        assertUnchangedAfter(txns.addOffsets("t", p.producerId(), p.producerEpoch(), "g", "__consumer_offsets", 7,
                env.nowMs), Errors.COORDINATOR_NOT_AVAILABLE);

        MetadataImage before = env.image;
        ControllerResult<Map<String, Map<Integer, Errors>>> missing = txns.addPartitions("t", p.producerId(),
                p.producerEpoch(), Map.of("a", List.of(0, 9), "nope", List.of(0)), env.nowMs);
        assertTrue(missing.records().isEmpty());
        assertEquals(Map.of("a", Map.of(0, Errors.OPERATION_NOT_ATTEMPTED, 9, Errors.UNKNOWN_TOPIC_OR_PARTITION),
                "nope", Map.of(0, Errors.UNKNOWN_TOPIC_OR_PARTITION)), missing.response());
        assertEquals(before.transactions(), env.image.transactions());
        assertEquals(TransactionState.EMPTY, state("t").state());
    }

    @Test
    void anOpenTransactionPastItsTimeoutIsAbortedAtABumpedEpochFromTheDeadlineIndex() {
        TransactionalProducer p = init("t");
        env.nowMs = 10_000;
        env.commit(txns.addPartitions("t", p.producerId(), p.producerEpoch(), Map.of("a", List.of(0)), env.nowMs));
        assertEquals(10_000 + TIMEOUT_MS, txns.nextDeadlineMs());
        assertTrue(txns.expire(10_000 + TIMEOUT_MS - 1).records().isEmpty());
        ControllerResult<List<String>> expired = env.commit(txns.expire(10_000 + TIMEOUT_MS));
        assertEquals(List.of("t"), expired.response());
        assertEquals(TransactionState.PREPARE_ABORT, state("t").state());
        assertEquals(1, state("t").producerEpoch());
        assertUnchangedAfter(txns.endTransaction("t", p.producerId(), p.producerEpoch(), true, env.nowMs),
                Errors.PRODUCER_FENCED);
    }

    @Test
    void anIdleIdIsRemovedAfterTheExpirationAndAPrepareWhoseTopicWentCompletes() {
        TransactionalProducer idle = init("idle");
        long expiresAt = env.nowMs + TransactionSettings.DEFAULTS.idExpirationMs();
        assertEquals(expiresAt, txns.nextDeadlineMs());
        ControllerResult<List<String>> removed = env.commit(txns.expire(expiresAt));
        assertEquals(List.of("idle"), removed.response());
        assertNull(env.image.transactions().transaction("idle"));
        assertEquals(Long.MAX_VALUE, txns.nextDeadlineMs());

        TransactionalProducer p = init("t");
        env.commit(txns.addPartitions("t", p.producerId(), p.producerEpoch(), Map.of("a", List.of(0)), env.nowMs));
        env.commit(txns.endTransaction("t", p.producerId(), p.producerEpoch(), false, env.nowMs));
        env.commit(env.managers.deleteTopic("a"));
        assertEquals(TransactionState.PREPARE_ABORT, state("t").state());
        env.commit(txns.expire(env.nowMs + TIMEOUT_MS));
        assertEquals(TransactionState.COMPLETE_ABORT, state("t").state(), "no leader is left to report the topic");
        assertTrue(idle.producerId() >= 0);
    }

    @Test
    void aSnapshotOfTheTransactionsRebuildsTheSameImage() {
        TransactionalProducer p = init("t");
        env.commit(txns.addPartitions("t", p.producerId(), p.producerEpoch(), Map.of("a", List.of(0, 2)), env.nowMs));
        env.commit(txns.addOffsets("t", p.producerId(), p.producerEpoch(), "g", "__consumer_offsets", 0, env.nowMs));
        env.commit(txns.endTransaction("t", p.producerId(), p.producerEpoch(), true, env.nowMs));
        init("other");
        MetadataImage rebuilt = MetadataDelta.imageOf(env.image.toRecords(), new MetadataProvenance(env.image.offset(),
                env.image.epoch()));
        assertEquals(env.image.transactions().transactions(), rebuilt.transactions().transactions());
        // A standby's managers built from the image index the same deadlines.
        ControlManagers standby = ControlManagers.fromImage(rebuilt, env.settings, ControllerTestEnv.topicConfigResolver(),
                ControllerTestEnv.FEATURES, new java.util.Random(1));
        assertEquals(txns.nextDeadlineMs(), standby.transactions().nextDeadlineMs());
        assertEquals(TransactionsImage.EMPTY.transactions().size() + 2, rebuilt.transactions().transactions().size());
        assertTrue(MetadataRecords.checkReadable(state("t").toRecord()) != null);
    }

    private TransactionalProducer init(String id) {
        return TransactionSteps.init(env, id, TIMEOUT_MS);
    }

    private ControllerResult<Void> report(String id, TransactionalProducer p, boolean commit,
                                          TopicIdPartition... partitions) {
        return TransactionSteps.report(env, id, p, commit, partitions);
    }

    private TransactionMetadata state(String id) {
        return env.image.transactions().transaction(id);
    }

    private void assertUnchangedAfter(ControllerResult<?> result, Errors expected) {
        TransactionSteps.assertUnchangedAfter(result, expected);
    }

    private static TopicIdPartition tp(UUID topicId, int partition) {
        return new TopicIdPartition(topicId, partition);
    }
}
