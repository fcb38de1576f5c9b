package io.kraft.broker.group;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.broker.group.GroupApi.CommitRequest;
import io.kraft.broker.group.GroupApi.FetchedOffset;
import io.kraft.broker.group.GroupApi.JoinRequest;
import io.kraft.broker.group.GroupApi.JoinResult;
import io.kraft.broker.group.GroupApi.PartitionCommit;
import io.kraft.broker.group.GroupApi.Protocol;
import io.kraft.broker.group.GroupApi.SyncRequest;
import io.kraft.broker.group.GroupApi.SyncResult;
import io.kraft.broker.group.GroupApi.TxnCommitRequest;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * TxnOffsetCommit in the coordinator state machine (KIP-98, KIP-447): a transaction's offsets stay pending until its
 * marker, count only if it committed, survive a reload the same way, and are fenced by the group's generation.
 */
class TransactionalOffsetCommitTest {
    private static final String GROUP = "orders";
    private static final OffsetKey P0 = new OffsetKey("events", 0);
    private static final long PRODUCER = 4_000L;

    private final ManualTimer timer = new ManualTimer(1_000_000L);
    private final InMemoryCoordinatorLog log = new InMemoryCoordinatorLog();
    private GroupCoordinator coordinator;

    @BeforeEach
    void start() {
        GroupConfig config = new GroupConfig(6_000, 1_800_000, 0, 1_000, 4_096, 60_000L,
                600_000, 1, (short) 1, 104_857_600, 5_000);
        coordinator = new GroupCoordinator(config, timer, log, partition -> true);
        coordinator.onElected(0, 0);
        timer.runPending();
    }

    private Map<OffsetKey, Errors> txnCommit(long producerId, int generation, String memberId, long offset) {
        AtomicReference<Map<OffsetKey, Errors>> result = new AtomicReference<>();
        coordinator.commitTransactionalOffsets(new TxnCommitRequest("txn-1", GROUP, producerId, (short) 0, generation,
                memberId, null, List.of(new PartitionCommit(P0, offset, -1, "t"))), result::set);
        timer.runPending();
        return result.get();
    }

    private void plainCommit(long offset) {
        AtomicReference<Map<OffsetKey, Errors>> result = new AtomicReference<>();
        coordinator.commitOffsets(new CommitRequest(GROUP, -1, "", null, -1,
                List.of(new PartitionCommit(P0, offset, -1, ""))), result::set);
        timer.runPending();
        assertEquals(Errors.NONE, result.get().get(P0));
    }

    private FetchedOffset fetch(boolean requireStable) {
        return coordinator.fetchOffsets(GROUP, List.of(P0), requireStable).offsets().get(0);
    }

    private void marker(long producerId, boolean committed) {
        log.writeMarker(0, producerId, committed);
        coordinator.completeTransaction(0, producerId, committed);
        timer.runPending();
    }

    private void reload() {
        coordinator.onResigned(0);
        coordinator.onElected(0, 1);
        timer.runPending();
    }

    @Test
    void offsetsCountOnlyOnceTheTransactionCommits() {
        assertEquals(Errors.NONE, txnCommit(PRODUCER, -1, "", 10).get(P0));
        assertEquals(-1, fetch(false).offset(), "not committed before the marker");
        assertEquals(Errors.UNSTABLE_OFFSET_COMMIT, fetch(true).error());
        marker(PRODUCER, true);
        assertEquals(10, fetch(true).offset());
        assertEquals(Errors.NONE, fetch(true).error());
    }

    @Test
    void anAbortedTransactionsOffsetsAreDropped() {
        plainCommit(5);
        txnCommit(PRODUCER, -1, "", 10);
        marker(PRODUCER, false);
        assertEquals(5, fetch(true).offset());
        assertEquals(Errors.NONE, fetch(true).error());
    }

    @Test
    void aReloadHonoursMarkersAndKeepsAnOpenTransactionPending() {
        txnCommit(PRODUCER, -1, "", 10);
        marker(PRODUCER, true);
        txnCommit(PRODUCER, -1, "", 20);
        marker(PRODUCER, false);
        txnCommit(PRODUCER + 1, -1, "", 30);
        reload();
        assertEquals(10, fetch(false).offset(), "the committed one counts, the aborted one never");
        assertEquals(Errors.UNSTABLE_OFFSET_COMMIT, fetch(true).error(), "the open one is pending");
        coordinator.completeTransaction(0, PRODUCER + 1, true);
        assertEquals(30, fetch(true).offset());
    }

    @Test
    void aPlainCommitWrittenAfterTheTransactionsOffsetWins() {
        txnCommit(PRODUCER, -1, "", 10);
        plainCommit(15);
        marker(PRODUCER, true);
        assertEquals(15, fetch(true).offset());
        reload();
        assertEquals(15, fetch(true).offset(), "the log's order decides on reload too");
    }

    @Test
    void aMarkerWrittenWhileThePartitionLoadsIsAppliedAfterTheLoad() {
        txnCommit(PRODUCER, -1, "", 10);
        coordinator.onResigned(0);
        coordinator.onElected(0, 1);
        coordinator.completeTransaction(0, PRODUCER, true); // before the load's read is replayed
        timer.runPending();
        assertEquals(10, fetch(true).offset());
    }

    @Test
    void theConsumersGroupMetadataFencesTheCommitAndChangesNothing() {
        AtomicReference<JoinResult> first = new AtomicReference<>();
        List<Protocol> protocols = List.of(new Protocol("range", new byte[] {0, 0, 0, 0, 0, 0, -1, -1, -1, -1}));
        coordinator.joinGroup(new JoinRequest(GROUP, "", null, "c", "/127.0.0.1", 10_000, 30_000, "consumer",
                protocols, true, true), first::set);
        timer.runPending();
        AtomicReference<JoinResult> joined = new AtomicReference<>();
        coordinator.joinGroup(new JoinRequest(GROUP, first.get().memberId(), null, "c", "/127.0.0.1", 10_000, 30_000,
                "consumer", protocols, true, true), joined::set);
        timer.runPending();
        String member = joined.get().memberId();
        int generation = joined.get().generationId();
        AtomicReference<SyncResult> synced = new AtomicReference<>();
        coordinator.syncGroup(new SyncRequest(GROUP, generation, member, null, "consumer", "range",
                Map.of(member, new byte[0])), synced::set);
        timer.runPending();
        assertEquals(Errors.NONE, synced.get().error());
        int appends = log.appendCount();

        assertEquals(Errors.ILLEGAL_GENERATION, txnCommit(PRODUCER, generation - 1, member, 10).get(P0));
        assertEquals(Errors.UNKNOWN_MEMBER_ID, txnCommit(PRODUCER, generation, "stranger", 10).get(P0));
        assertEquals(appends, log.appendCount(), "a refused commit writes nothing");
        assertEquals(Errors.NONE, fetch(true).error(), "and leaves nothing pending");
        assertEquals(-1, fetch(true).offset());

        assertEquals(Errors.NONE, txnCommit(PRODUCER, generation, member, 10).get(P0));
        marker(PRODUCER, true);
        assertEquals(10, fetch(true).offset());
    }

    @Test
    void deletingTheGroupDeletesUndecidedOffsetsTooAndAReloadAgrees() {
        txnCommit(PRODUCER, -1, "", 10);
        AtomicReference<Errors> deleted = new AtomicReference<>();
        coordinator.deleteGroup(GROUP, deleted::set);
        timer.runPending();
        assertEquals(Errors.NONE, deleted.get());
        marker(PRODUCER, true);
        assertEquals(-1, fetch(true).offset());
        reload();
        assertEquals(-1, fetch(true).offset(), "the tombstone after the transaction's offset wins on reload too");
    }

    @Test
    void aFailedWriteLeavesNothingPending() {
        log.failAppends(Errors.NOT_COORDINATOR);
        assertEquals(Errors.NOT_COORDINATOR, txnCommit(PRODUCER, -1, "", 10).get(P0));
        log.failAppends(null);
        assertEquals(Errors.NONE, fetch(true).error());
        marker(PRODUCER, true);
        assertEquals(-1, fetch(true).offset());
    }
}
