package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TransactionMetadata;
import io.kraft.metadata.image.TransactionState;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The transitions of transaction protocol version 2 (KIP-890 part 2), driven by hand on a controller's view. */
class TransactionVersion2ControlManagerTest {
    private static final int TIMEOUT_MS = 60_000;
    private static final int V2 = TransactionControlManager.TRANSACTION_VERSION_2;

    private ControllerTestEnv env;
    private TransactionControlManager txns;
    private UUID topicA;

    @BeforeEach
    void setUp() {
        env = new ControllerTestEnv();
        env.startBroker(1, null);
        topicA = env.commit(env.managers.createTopic(new CreateTopicRequest("a", 3, 1, Map.of(), Map.of())))
                .response().topicId();
        env.commit(env.managers.createTopic(new CreateTopicRequest("__consumer_offsets", 2, 1, Map.of(), Map.of())));
        txns = env.managers.transactions();
    }

    @Test
    void aCommitBumpsTheEpochWhichTheMarkersCarryAndARetryAtTheOldEpochGetsTheSameAnswer() {
        TransactionalProducer p = init("t");
        assertTrue(env.commit(txns.addPartitions("t", p.producerId(), p.producerEpoch(),
                Map.of("a", List.of(0, 1)), V2, env.nowMs)).isSuccess());
        assertEquals(V2, state("t").transactionVersion());

        TransactionalProducer next = env.commit(txns.endTransaction("t", p.producerId(), p.producerEpoch(), true,
                true, env.nowMs)).response();
        short bumped = (short) (p.producerEpoch() + 1);
        assertEquals(TransactionalProducer.of(p.producerId(), bumped), next);
        TransactionMetadata prepared = state("t");
        assertEquals(TransactionState.PREPARE_COMMIT, prepared.state());
        assertEquals(bumped, prepared.producerEpoch(), "the markers carry the bumped epoch");
        assertEquals(p.producerEpoch(), prepared.previousProducerEpoch());

        // The producer's next transaction waits for the markers; its old epoch is fenced.
        assertUnchangedAfter(txns.addPartitions("t", p.producerId(), bumped, Map.of("a", List.of(2)), V2,
                env.nowMs), Errors.CONCURRENT_TRANSACTIONS);
        assertUnchangedAfter(txns.addPartitions("t", p.producerId(), p.producerEpoch(), Map.of("a", List.of(2)),
                V2, env.nowMs), Errors.PRODUCER_FENCED);
        ControllerResult<TransactionalProducer> retried = txns.endTransaction("t", p.producerId(), p.producerEpoch(),
                true, true, env.nowMs);
        assertTrue(retried.isSuccess() && retried.records().isEmpty());
        assertEquals(next, retried.response());

        env.commit(report("t", next, true, tp(0), tp(1)));
        assertEquals(TransactionState.COMPLETE_COMMIT, state("t").state());
        assertEquals(bumped, state("t").producerEpoch());
        assertEquals(next, env.commit(txns.endTransaction("t", p.producerId(), p.producerEpoch(), true, true,
                env.nowMs)).response(), "a retry after completion");
        assertUnchangedAfter(txns.endTransaction("t", p.producerId(), p.producerEpoch(), false, true, env.nowMs),
                Errors.INVALID_TXN_STATE);

        // The next transaction opens at the bumped epoch.
        assertTrue(env.commit(txns.addPartitions("t", p.producerId(), bumped, Map.of("a", List.of(2)), V2,
                env.nowMs)).isSuccess());
        assertEquals(TransactionState.ONGOING, state("t").state());
        assertEquals(Set.of(tp(2)), state("t").partitions());
    }

    @Test
    void aTransactionBegunWithVersion1EndsWithoutABumpEvenFromAVersion2Client() {
        TransactionalProducer p = init("t");
        env.commit(txns.addPartitions("t", p.producerId(), p.producerEpoch(), Map.of("a", List.of(0)), 1, env.nowMs));
        env.commit(txns.addPartitions("t", p.producerId(), p.producerEpoch(), Map.of("a", List.of(1)), V2, env.nowMs));
        assertEquals(1, state("t").transactionVersion(), "a transaction keeps the version it began with");
        TransactionalProducer next = env.commit(txns.endTransaction("t", p.producerId(), p.producerEpoch(), false,
                true, env.nowMs)).response();
        assertEquals(p, next);
        assertEquals(p.producerEpoch(), state("t").producerEpoch());
        assertEquals(TransactionState.PREPARE_ABORT, state("t").state());
    }

    @Test
    void aVersion1ClientEndsAVersion2TransactionWithoutABump() {
        TransactionalProducer p = init("t");
        env.commit(txns.addPartitions("t", p.producerId(), p.producerEpoch(), Map.of("a", List.of(0)), V2, env.nowMs));
        assertEquals(p, env.commit(txns.endTransaction("t", p.producerId(), p.producerEpoch(), true, false,
                env.nowMs)).response());
        assertEquals(p.producerEpoch(), state("t").producerEpoch());
    }

    @Test
    void anAbortAtTheBumpedEpochWhileTheCommitsMarkersAreWrittenIsRetriedNotRefused() {
        TransactionalProducer p = init("t");
        env.commit(txns.addPartitions("t", p.producerId(), p.producerEpoch(), Map.of("a", List.of(0)), V2, env.nowMs));
        TransactionalProducer next = env.commit(txns.endTransaction("t", p.producerId(), p.producerEpoch(), true,
                true, env.nowMs)).response();
        assertUnchangedAfter(txns.endTransaction("t", next.producerId(), next.producerEpoch(), false, true,
                env.nowMs), Errors.CONCURRENT_TRANSACTIONS);
        env.commit(report("t", next, true, tp(0)));
        assertEquals(TransactionalProducer.of(p.producerId(), (short) (next.producerEpoch() + 1)),
                env.commit(txns.endTransaction("t", next.producerId(), next.producerEpoch(), false, true, env.nowMs))
                        .response());
    }

    @Test
    void abortingWithNothingOpenBumpsTheEpochAtOnceAndCommittingNothingIsRefused() {
        TransactionalProducer p = init("t");
        TransactionalProducer next = env.commit(txns.endTransaction("t", p.producerId(), p.producerEpoch(), false,
                true, env.nowMs)).response();
        assertEquals(TransactionalProducer.of(p.producerId(), (short) (p.producerEpoch() + 1)), next);
        assertEquals(TransactionState.COMPLETE_ABORT, state("t").state());
        assertEquals(next.producerEpoch(), state("t").producerEpoch());
        assertUnchangedAfter(txns.endTransaction("t", next.producerId(), next.producerEpoch(), true, true,
                env.nowMs), Errors.INVALID_TXN_STATE);
    }

    @Test
    void theGroupJoinsImplicitlyAndOpensAVersion2Transaction() {
        TransactionalProducer p = init("t");
        assertTrue(env.commit(txns.addOffsets("t", p.producerId(), p.producerEpoch(), "g", "__consumer_offsets", 1,
                V2, env.nowMs)).isSuccess());
        assertEquals(V2, state("t").transactionVersion());
        assertEquals(Set.of("g"), state("t").groups());
    }

    @Test
    void anExhaustedEpochMovesToANewProducerIdWhenTheDecidedTransactionCompletes() {
        TransactionalProducer first = init("t");
        env.commit(txns.addPartitions("t", first.producerId(), first.producerEpoch(), Map.of("a", List.of(0)), V2,
                env.nowMs));
        TransactionMetadata open = state("t");
        short max = TransactionControlManager.MAX_PRODUCER_EPOCH;
        env.replay(List.of(new TransactionMetadata("t", open.producerId(), max, -1, (short) -1, TIMEOUT_MS,
                TransactionState.ONGOING, open.partitions(), Set.of(), env.nowMs, env.nowMs, 0, V2, -1L).toRecord()));
        long newId = env.image.producerIds().nextProducerId();

        TransactionalProducer next = env.commit(txns.endTransaction("t", first.producerId(), max, true, true,
                env.nowMs)).response();
        assertEquals(TransactionalProducer.of(newId, (short) 0), next);
        TransactionMetadata prepared = state("t");
        assertEquals(Short.MAX_VALUE, prepared.producerEpoch(), "the markers fence every epoch of the old id");
        assertEquals(first.producerId(), prepared.producerId());
        assertEquals(newId, prepared.nextProducerId());
        assertEquals(newId + 1, env.image.producerIds().nextProducerId());
        assertUnchangedAfter(txns.addPartitions("t", newId, (short) 0, Map.of("a", List.of(1)), V2, env.nowMs),
                Errors.CONCURRENT_TRANSACTIONS);

        env.commit(report("t", TransactionalProducer.of(first.producerId(), Short.MAX_VALUE), true, tp(0)));
        TransactionMetadata complete = state("t");
        assertEquals(TransactionState.COMPLETE_COMMIT, complete.state());
        assertEquals(newId, complete.producerId());
        assertEquals(0, complete.producerEpoch());
        assertEquals(-1L, complete.nextProducerId());
        assertEquals(next, env.commit(txns.endTransaction("t", first.producerId(), max, true, true, env.nowMs))
                .response(), "a retry at the old id gets the new one");
        assertTrue(env.commit(txns.addPartitions("t", newId, (short) 0, Map.of("a", List.of(1)), V2, env.nowMs))
                .isSuccess());
    }

    @Test
    void aFencedVersion2ProducerCannotClaimTheFencingBumpByARetry() {
        TransactionalProducer zombie = init("t");
        env.commit(txns.addPartitions("t", zombie.producerId(), zombie.producerEpoch(), Map.of("a", List.of(0)), V2,
                env.nowMs));
        ControllerResult<TransactionalProducer> fencing = env.commit(txns.initProducerId("t", TIMEOUT_MS, -1,
                (short) -1, env.nowMs));
        assertEquals(Errors.CONCURRENT_TRANSACTIONS, fencing.response().error());
        assertEquals(TransactionState.PREPARE_ABORT, state("t").state());
        assertUnchangedAfter(txns.endTransaction("t", zombie.producerId(), zombie.producerEpoch(), false, true,
                env.nowMs), Errors.PRODUCER_FENCED);
    }

    @Test
    void theVersionAndNextProducerIdSurviveTheRecord() {
        TransactionMetadata state = new TransactionMetadata("t", 7, Short.MAX_VALUE, 7, (short) 32766, TIMEOUT_MS,
                TransactionState.PREPARE_COMMIT, Set.of(tp(0)), Set.of(), 1, 2, 3, V2, 42L);
        MetadataRecord record = state.toRecord();
        assertEquals(state, TransactionMetadata.replay(null, record.getTransaction(), 3));
        TransactionMetadata v1 = new TransactionMetadata("t", 7, (short) 1, -1, (short) -1, TIMEOUT_MS,
                TransactionState.EMPTY, Set.of(), Set.of(), -1, 2, 0);
        assertFalse(v1.toRecord().getTransaction().hasNextProducerId());
        assertEquals(0, v1.toRecord().getTransaction().getTransactionVersion(), "version 1 records are unchanged");
        assertEquals(v1, TransactionMetadata.replay(null, v1.toRecord().getTransaction(), 0));
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

    private static void assertUnchangedAfter(ControllerResult<?> result, Errors expected) {
        TransactionSteps.assertUnchangedAfter(result, expected);
    }

    private TopicIdPartition tp(int partition) {
        return new TopicIdPartition(topicA, partition);
    }
}
