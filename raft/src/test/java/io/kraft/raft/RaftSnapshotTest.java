package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.RaftMessage.BeginQuorumEpoch;
import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.FetchResponse;
import io.kraft.raft.RaftMessage.FetchSnapshotRequest;
import io.kraft.raft.RaftMessage.FetchSnapshotResponse;
import io.kraft.raft.RaftMessage.VoteRequest;
import io.kraft.raft.RaftMessage.VoteResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Snapshots in the core: recording one, deleting the log prefix, sending it in chunks, installing it, restarting. */
class RaftSnapshotTest {
    private static final Set<Integer> VOTERS = Set.of(1, 2, 3);
    private static final int CHUNK_BYTES = 8;

    private final InMemoryRaftLog leaderLog = new InMemoryRaftLog();
    private final InMemorySnapshotStore leaderSnapshots = new InMemorySnapshotStore();
    private final InMemoryRaftLog followerLog = new InMemoryRaftLog();
    private final InMemorySnapshotStore followerSnapshots = new InMemorySnapshotStore();

    /** The node's next Ready, its writes carried out on the leader's (node 1) or the other node's log and store. */
    private Ready ready(RaftNode node) {
        return node.nodeId() == 1 ? HandDriver.ready(node, leaderLog, leaderSnapshots)
                : HandDriver.ready(node, followerLog, followerSnapshots);
    }

    private static RaftConfig config(int nodeId) {
        return new RaftConfig(nodeId, VOTERS, 10, 20, 10, 10, 4, 100, CHUNK_BYTES);
    }

    /** Node 1 leads epoch 1 and has committed five records, one append each (node 2 acknowledged them). */
    private RaftNode leaderWithCommittedRecords() {
        return leaderWithCommittedRecords(1);
    }

    /** Node 1 leads epoch 1 and has committed five records in appends of {@code batchSize} (node 2 acknowledged). */
    private RaftNode leaderWithCommittedRecords(int batchSize) {
        RaftNode leader = new RaftNode(config(1), leaderLog, leaderSnapshots, QuorumState.INITIAL, new Random(3));
        ready(leader);
        VoteRequest preVote = null;
        for (int i = 0; i < 100 && preVote == null; i++) {
            leader.tick();
            preVote = ready(leader).messages().stream().filter(VoteRequest.class::isInstance)
                    .map(VoteRequest.class::cast).findFirst().orElse(null);
        }
        leader.handle(new VoteResponse(2, 1, 0, RaftMessage.NO_LEADER, true, true, preVote.epoch()));
        ready(leader);
        leader.handle(new VoteResponse(2, 1, 1, RaftMessage.NO_LEADER, true, false, 1));
        assertEquals(Role.LEADER, leader.role());
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            records.add(("record-" + i).getBytes(StandardCharsets.UTF_8));
        }
        for (int from = 0; from < records.size(); from += batchSize) {
            leader.append(records.subList(from, Math.min(records.size(), from + batchSize)));
        }
        ready(leader);
        leaderLog.flush();
        leader.handleLogFlushed(leaderLog.endOffset());
        leader.handle(new FetchRequest(2, 1, 1, leaderLog.endOffset(), 1));
        assertEquals(6, leader.highWatermark());
        ready(leader);
        return leader;
    }

    private SnapshotId snapshotAndDeletePrefix(RaftNode leader) {
        SnapshotId id = new SnapshotId(6, 1);
        leaderSnapshots.save(id, "state after six offsets, padded to need several chunks".getBytes(
                StandardCharsets.UTF_8));
        leader.snapshotCreated(id);
        leader.deleteLogPrefix(id);
        assertEquals(6, leader.logStartOffset());
        assertEquals(Optional.of(id), ready(leader).logWrites().deletePrefix(), "the deletion is handed to the driver");
        assertEquals(6, leaderLog.startOffset());
        return id;
    }

    @Test
    void fetchBelowLogStartIsAnsweredWithTheSnapshotToFetch() {
        RaftNode leader = leaderWithCommittedRecords();
        SnapshotId id = snapshotAndDeletePrefix(leader);

        assertSentTheSnapshot(leader, new FetchRequest(3, 1, 1, 0, 0), id, "an empty log below the start");

        leader.handle(new FetchRequest(2, 1, 1, 6, 1)); // at the start, continuing the snapshot: served normally
        assertTrue(ready(leader).messages().isEmpty(), "an up-to-date fetch at the log start is held (long poll)");
    }

    @Test
    void aMemberRestartedOnALongLogThatEndsBelowTheLeadersStartIsSentTheSnapshot() {
        RaftNode leader = leaderWithCommittedRecords();
        SnapshotId id = snapshotAndDeletePrefix(leader);

        // Its own log holds offsets 0..4 of epoch 1 (it replayed them after its own snapshot): one offset short.
        assertSentTheSnapshot(leader, new FetchRequest(3, 1, 1, 5, 1), id,
                "records below the start are gone: only the snapshot brings it up");
        // Its log ends in an epoch the leader's log no longer shows: where they part lies below the start.
        assertSentTheSnapshot(leader, new FetchRequest(3, 1, 1, 9, 0), id,
                "no divergence point above the start: the snapshot, not a truncation");
    }

    private void assertSentTheSnapshot(RaftNode leader, FetchRequest request, SnapshotId id, String why) {
        leader.handle(request);
        FetchResponse response = (FetchResponse) ready(leader).messages().get(0);
        assertTrue(response.snapshotNeeded(), why);
        assertEquals(id, response.snapshotId(), why);
        assertTrue(response.entries().isEmpty(), why);
    }

    @Test
    void laggingFollowerInstallsSnapshotChunkByChunkAndRejectsACorruptChunk() {
        RaftNode leader = leaderWithCommittedRecords();
        SnapshotId id = snapshotAndDeletePrefix(leader);
        RaftNode follower = new RaftNode(config(3), followerLog, followerSnapshots, QuorumState.INITIAL,
                new Random(5));
        ready(follower);
        follower.handle(new BeginQuorumEpoch(1, 3, 1));

        boolean corrupted = false;
        Optional<SnapshotId> loaded = Optional.empty();
        FetchRequest resumedFetch = null;
        Deque<RaftMessage> toLeaderQueue = new ArrayDeque<>();
        for (int round = 0; round < 100 && resumedFetch == null; round++) {
            Ready followerReady = ready(follower);
            if (followerReady.loadSnapshot().isPresent()) {
                loaded = followerReady.loadSnapshot();
            }
            toLeaderQueue.addAll(followerReady.messages());
            while (!toLeaderQueue.isEmpty()) {
                RaftMessage toLeader = toLeaderQueue.poll();
                if (toLeader instanceof FetchRequest fetch && fetch.fetchOffset() > 0) {
                    resumedFetch = fetch;
                    break;
                }
                if (!(toLeader instanceof FetchRequest) && !(toLeader instanceof FetchSnapshotRequest)) {
                    continue;
                }
                leader.handle(toLeader);
                for (RaftMessage toFollower : ready(leader).messages()) {
                    if (toFollower instanceof FetchSnapshotResponse chunk && !corrupted && chunk.position() > 0) {
                        corrupted = true;
                        byte[] data = chunk.data().clone();
                        data[0] ^= 0x40;
                        follower.handle(new FetchSnapshotResponse(chunk.source(), chunk.destination(), chunk.epoch(),
                                chunk.leaderId(), chunk.error(), chunk.snapshotId(), chunk.sizeBytes(),
                                chunk.position(), data, chunk.crc32c(), chunk.lastOfResponse()));
                        assertEquals(1, follower.rejectedSnapshotChunks());
                        assertTrue(follower.lastSnapshotError().orElseThrow().contains("CRC32C"),
                                follower.lastSnapshotError().orElseThrow());
                        Ready afterCorruptChunk = ready(follower);
                        assertTrue(afterCorruptChunk.snapshotWrites().chunks().stream()
                                .allMatch(written -> written.position() < chunk.position()),
                                "the corrupt chunk is not handed out to be written");
                        toLeaderQueue.addAll(afterCorruptChunk.messages());
                        assertEquals(chunk.position(), followerSnapshots.receivedBytes(id),
                                "the corrupt chunk stored nothing");
                        assertEquals(0, followerLog.endOffset(), "the log is untouched");
                        assertEquals(0, follower.highWatermark());
                        continue;
                    }
                    follower.handle(toFollower);
                }
            }
        }
        assertTrue(corrupted, "a chunk past the first was corrupted");
        assertEquals(Optional.of(id), loaded, "the state machine is told to load the installed snapshot");
        assertEquals(id, followerSnapshots.latest().orElseThrow());
        assertArrayEquals(leaderSnapshots.state(id), followerSnapshots.state(id));
        assertEquals(6, followerLog.startOffset());
        assertEquals(6, followerLog.endOffset());
        assertEquals(1, followerLog.lastEpoch());
        assertEquals(6, follower.highWatermark());
        assertEquals(new FetchRequest(3, 1, 1, 6, 1), resumedFetch, "fetching resumes after the snapshot");
    }

    @Test
    void restartLoadsLatestSnapshotThenReplaysTheLogAfterIt() {
        RaftNode leader = leaderWithCommittedRecords();
        SnapshotId id = new SnapshotId(3, 1);
        leaderSnapshots.save(id, new byte[] {1, 2, 3});
        leader.snapshotCreated(id);

        RaftNode restarted = new RaftNode(config(1), leaderLog, leaderSnapshots,
                new QuorumState(1, java.util.OptionalInt.of(1), java.util.OptionalInt.of(1)), new Random(9));
        Ready first = ready(restarted);
        assertEquals(Optional.of(id), first.loadSnapshot());
        assertEquals(3, restarted.highWatermark(), "the snapshot holds only committed records");
        assertEquals(0, leaderLog.startOffset(), "retention decides on prefix deletion, not a restart");
        assertTrue(first.committed().isEmpty(), "records after the snapshot wait until known committed again");
    }

    @Test
    void restartResetsALogThatDoesNotContinueTheSnapshot() {
        SnapshotId id = new SnapshotId(10, 2);
        followerSnapshots.save(id, new byte[] {7});
        followerLog.append(List.of(LogEntry.leaderChange(0, 1, 1), LogEntry.data(1, 1, new byte[] {1})));
        RaftNode node = new RaftNode(config(3), followerLog, followerSnapshots, new QuorumState(2,
                java.util.OptionalInt.empty(), java.util.OptionalInt.empty()), new Random(1));
        assertEquals(Optional.of(id), ready(node).loadSnapshot());
        assertEquals(10, followerLog.startOffset());
        assertEquals(10, followerLog.endOffset());
        assertEquals(2, followerLog.lastEpoch());
    }

    @Test
    void snapshotBeyondWhatTheStateMachineAppliedIsRejected() {
        RaftNode leader = leaderWithCommittedRecords();
        SnapshotId beyond = new SnapshotId(7, 1);
        leaderSnapshots.save(beyond, new byte[0]);
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> leader.snapshotCreated(beyond));
        assertTrue(error.getMessage().contains("ends past the records handed to the state machine"));
        SnapshotId unstored = new SnapshotId(4, 1);
        assertInstanceOf(IllegalArgumentException.class,
                assertThrows(IllegalArgumentException.class, () -> leader.snapshotCreated(unstored)));
        assertThrows(IllegalArgumentException.class, () -> leader.deleteLogPrefix(unstored));
        assertEquals(0, leaderLog.startOffset(), "nothing was deleted");
    }

    @Test
    void snapshotEndingInsideAnAppendedBatchIsRejected() {
        RaftNode leader = leaderWithCommittedRecords(5);
        SnapshotId inside = new SnapshotId(3, 1);
        leaderSnapshots.save(inside, new byte[0]);
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> leader.snapshotCreated(inside));
        assertTrue(error.getMessage().contains("ends inside a batch"), error.getMessage());
        SnapshotId whole = new SnapshotId(6, 1);
        leaderSnapshots.save(whole, new byte[0]);
        leader.snapshotCreated(whole);
        assertEquals(Optional.of(whole), leader.latestSnapshot());
    }

    @Test
    void snapshotFetchForAnUnknownSnapshotOrPositionIsRejected() {
        RaftNode leader = leaderWithCommittedRecords();
        SnapshotId id = snapshotAndDeletePrefix(leader);
        leader.handle(new FetchSnapshotRequest(3, 1, 1, new SnapshotId(5, 1), 0, 100));
        assertEquals(RaftMessage.FetchError.SNAPSHOT_NOT_FOUND,
                ((FetchSnapshotResponse) ready(leader).messages().get(0)).error());
        leader.handle(new FetchSnapshotRequest(3, 1, 1, id, 1_000_000, 100));
        assertEquals(RaftMessage.FetchError.POSITION_OUT_OF_RANGE,
                ((FetchSnapshotResponse) ready(leader).messages().get(0)).error());
        leader.handle(new FetchSnapshotRequest(3, 1, 0, id, 0, 100));
        assertEquals(RaftMessage.FetchError.FENCED_LEADER_EPOCH,
                ((FetchSnapshotResponse) ready(leader).messages().get(0)).error());
    }

    /**
     * Starts follower 3 (empty log) under leader 1 and passes messages both ways, each chunk through {@code onWire},
     * until the follower hands out the install of the complete snapshot; returns that Ready, not yet carried out.
     */
    private Ready exchangeUntilInstall(RaftNode leader, RaftNode follower, UnaryOperator<FetchSnapshotResponse> onWire) {
        ready(follower);
        follower.handle(new BeginQuorumEpoch(1, 3, 1));
        for (int round = 0; round < 100; round++) {
            Ready followerReady = follower.ready();
            if (followerReady.snapshotWrites().install().isPresent()) {
                return followerReady;
            }
            followerReady.snapshotWrites().applyTo(followerSnapshots, follower);
            followerReady.logWrites().applyTo(followerLog);
            for (RaftMessage toLeader : followerReady.messages()) {
                leader.handle(toLeader);
                for (RaftMessage toFollower : ready(leader).messages()) {
                    follower.handle(toFollower instanceof FetchSnapshotResponse chunk ? onWire.apply(chunk) : toFollower);
                }
            }
        }
        throw new AssertionError("the follower never completed the snapshot");
    }

    @Test
    void theFollowerFetchesNothingWhileItsDriverInstallsTheSnapshot() {
        RaftNode leader = leaderWithCommittedRecords();
        SnapshotId id = snapshotAndDeletePrefix(leader);
        RaftNode follower = new RaftNode(config(3), followerLog, followerSnapshots, QuorumState.INITIAL, new Random(5));
        Ready withInstall = exchangeUntilInstall(leader, follower, UnaryOperator.identity());
        assertEquals(Optional.of(id), withInstall.snapshotWrites().install());
        assertTrue(withInstall.messages().stream()
                .noneMatch(m -> m instanceof FetchRequest || m instanceof FetchSnapshotRequest),
                "no fetch goes out before the driver reports the install");

        withInstall.snapshotWrites().applyTo(followerSnapshots, follower); // installs, then reports it installed
        withInstall.logWrites().applyTo(followerLog);
        Ready afterInstall = ready(follower);
        assertEquals(Optional.of(id), afterInstall.loadSnapshot());
        assertEquals(List.of(new FetchRequest(3, 1, 1, 6, 1)), afterInstall.messages());
        assertEquals(6, followerLog.startOffset());
    }

    @Test
    void aSnapshotThatFailsItsWholeCheckOnInstallIsFetchedAgainFromTheStart() {
        RaftNode leader = leaderWithCommittedRecords();
        SnapshotId id = snapshotAndDeletePrefix(leader);
        RaftNode follower = new RaftNode(config(3), followerLog, followerSnapshots, QuorumState.INITIAL, new Random(5));
        // A first chunk altered with a matching chunk checksum: only the whole snapshot's check can tell.
        Ready withInstall = exchangeUntilInstall(leader, follower, chunk -> {
            if (chunk.position() != 0) {
                return chunk;
            }
            byte[] data = chunk.data().clone();
            data[0] ^= 0x01;
            return new FetchSnapshotResponse(chunk.source(), chunk.destination(), chunk.epoch(), chunk.leaderId(),
                    chunk.error(), chunk.snapshotId(), chunk.sizeBytes(), chunk.position(), data, Crc32c.of(data),
                    chunk.lastOfResponse());
        });
        withInstall.snapshotWrites().applyTo(followerSnapshots, follower); // the install fails and is reported
        assertEquals(1, follower.rejectedSnapshotChunks());
        assertTrue(follower.lastSnapshotError().orElseThrow().contains("CRC32C"),
                follower.lastSnapshotError().orElseThrow());
        assertEquals(Optional.empty(), followerSnapshots.latest());
        assertEquals(0, followerSnapshots.receivedBytes(id), "the store dropped what was received");
        assertEquals(List.of(new FetchSnapshotRequest(3, 1, 1, id, 0, RaftConfig.MAX_SNAPSHOT_FETCH_BYTES)),
                ready(follower).messages(), "the transfer starts over");
    }
}
