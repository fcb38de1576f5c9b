package io.kraft.raft;

import io.kraft.raft.RaftMessage.BeginQuorumEpoch;
import io.kraft.raft.RaftMessage.EndQuorumEpoch;
import io.kraft.raft.RaftMessage.FetchError;
import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.FetchResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;

/**
 * The leader's side of replication: opening an epoch, appending, serving fetches (holding idle ones as a long poll),
 * moving the high watermark to what a majority has durably reached, check-quorum, and resigning.
 */
final class LeaderReplication {
    private final NodeContext node;
    private final CommitTracker commits;
    private final SnapshotTransfer snapshots;
    private final Transitions roles;

    LeaderReplication(NodeContext node, CommitTracker commits, SnapshotTransfer snapshots, Transitions roles) {
        this.node = node;
        this.commits = commits;
        this.snapshots = snapshots;
        this.roles = roles;
    }

    /** The bookkeeping of a new leader of the current epoch, whose first entry goes at the log end. */
    LeaderState newLeadership() {
        // Check-quorum after 1.5 fetch timeouts, as KRaft does: a briefly slow follower must not depose the leader.
        return new LeaderState(roles.state().epoch(), node.nodeId, node.log.endOffset(), node.voters().ids(),
                node.now() + node.config.fetchTimeoutTicks() + node.config.fetchTimeoutTicks() / 2);
    }

    /** Opens the epoch with a leader-change record: committing it commits everything before it (Raft §5.4.2). */
    void openEpoch(LeaderState leader) {
        node.log.append(List.of(LogEntry.leaderChange(leader.epochStartOffset(), leader.epoch(), node.nodeId)));
        announce(leader);
    }

    void tick(LeaderState leader) {
        if (!leader.checkQuorum(node.now(), node.voters().majority(), node.config.fetchTimeoutTicks())) {
            resign(leader);
            return;
        }
        for (LeaderState.ParkedFetch parked : leader.unparkExpired(node.now())) {
            sendEntries(leader, parked.request());
        }
        announce(leader);
    }

    /** Tells voters silent for a fetch timeout (or all epoch) that this node leads, when a resend is due. */
    private void announce(LeaderState leader) {
        for (int voterId : leader.votersToAnnounceTo(node.now(), node.config.requestTimeoutTicks(),
                node.config.fetchTimeoutTicks())) {
            node.send(new BeginQuorumEpoch(node.nodeId, voterId, leader.epoch()));
        }
    }

    /**
     * Appends records as one batch of the leader's epoch, its boundary marked in the log so that it replicates and
     * commits whole; the future completes once the batch commits.
     */
    CompletableFuture<Long> append(LeaderState leader, List<byte[]> records) {
        List<byte[]> copies = new ArrayList<>(records.size());
        for (byte[] record : records) {
            copies.add(record.clone());
        }
        List<LogEntry> entries = LogEntry.batch(node.log.endOffset(), leader.epoch(), copies);
        node.log.append(entries);
        CompletableFuture<Long> future = new CompletableFuture<>();
        commits.awaitCommit(entries.get(entries.size() - 1).offset(), future);
        answerParkedFetches(leader);
        return future;
    }

    /** Appends a control record of raft's own (a voters record), a batch of its own, and wakes the held fetches. */
    void appendControl(LeaderState leader, LogEntry entry) {
        node.log.append(List.of(entry));
        answerParkedFetches(leader);
    }

    /** The leader's own copy is durable further: it may now count itself up to there. */
    void ownLogFlushed(LeaderState leader) {
        if (maybeAdvanceHighWatermark(leader)) {
            answerParkedFetches(leader);
        }
    }

    /** Steps down, telling voters to elect at once (best-placed first) and held fetches that it no longer leads. */
    void resign(LeaderState leader) {
        List<Integer> successors = leader.preferredSuccessors();
        for (int voterId : node.otherVoters()) {
            node.send(new EndQuorumEpoch(node.nodeId, voterId, leader.epoch(), successors));
        }
        for (LeaderState.ParkedFetch parked : leader.unparkAll()) {
            node.send(fetchError(leader, parked.request(), FetchError.NOT_LEADER, OptionalInt.empty()));
        }
        roles.becomeFollower(leader.epoch(), OptionalInt.empty(), leader.votedId(), node.randomElectionTimeoutTicks());
    }

    /** A node that does not lead answers a fetch with who it thinks leads, or that the fetcher is behind. */
    void refuseFetch(RoleState state, FetchRequest request) {
        FetchError error = request.epoch() < state.epoch() ? FetchError.FENCED_LEADER_EPOCH : FetchError.NOT_LEADER;
        node.send(fetchError(state, request, error, state.leaderId()));
    }

    /**
     * A member with an empty log (a new broker, a wiped node) gets our latest snapshot even while the log still holds
     * everything since offset 0 (retention keeps it until it outgrows its limits): loading the state is much cheaper
     * than replaying every record that built it, millions of them in a large cluster.
     */
    private boolean startsEmptyBehindSnapshot(FetchRequest request) {
        return request.fetchOffset() == 0 && request.lastFetchedEpoch() == 0
                && snapshots.latest().map(snapshot -> snapshot.endOffset() > 0).orElse(false);
    }

    /**
     * Serves a fetch: a member with an empty log, or one below the log start, is sent the snapshot to fetch; one whose
     * log diverges is told where ours ends for its last epoch; otherwise its offset counts as its acknowledgement and it
     * gets the whole batches after it, or is held until there are some (or a new high watermark) or the maximum wait
     * passes.
     */
    void serveFetch(LeaderState leader, FetchRequest request) {
        if (request.epoch() != leader.epoch()) {
            FetchError error = request.epoch() < leader.epoch()
                    ? FetchError.FENCED_LEADER_EPOCH : FetchError.UNKNOWN_LEADER_EPOCH;
            node.send(fetchError(leader, request, error, leader.leaderId()));
            return;
        }
        if (request.source() == node.nodeId || request.fetchOffset() < 0) {
            return;
        }
        if (request.fetchOffset() < node.log.startOffset() || startsEmptyBehindSnapshot(request)) {
            snapshots.answerWithSnapshotToFetch(leader, request);
            return;
        }
        if (request.fetchOffset() > 0 || request.lastFetchedEpoch() > 0) {
            OffsetAndEpoch end = node.log.endOffsetForEpoch(request.lastFetchedEpoch());
            if (end.epoch() != request.lastFetchedEpoch() || request.fetchOffset() > end.offset()) {
                if (end.offset() < node.log.startOffset()) {
                    // Where the logs part lies below our start: only a snapshot helps.
                    snapshots.answerWithSnapshotToFetch(leader, request);
                    return;
                }
                // An epoch ends where the next one's leader-change record starts, or at the log end: between batches.
                node.log.requireBatchBoundary(end.offset(), "the end of epoch " + end.epoch() + " at");
                leader.recordContact(request.source(), node.now());
                node.send(new FetchResponse(node.nodeId, request.source(), leader.epoch(), node.nodeId,
                        FetchError.NONE, request.fetchOffset(), request.lastFetchedEpoch(), commits.highWatermark(),
                        end.epoch(), end.offset(), List.of()));
                return;
            }
        }
        if (node.log.batchEndsAt(request.fetchOffset())) {
            leader.recordFetch(request.source(), request.fetchOffset(), node.now(), node.log.endOffset());
        } else {
            // No correct member holds part of a batch; should one, counting it could commit part of the batch. It
            // is sent the rest of the batch, and acknowledges once it holds it whole.
            leader.recordContact(request.source(), node.now());
        }
        boolean highWatermarkMoved = maybeAdvanceHighWatermark(leader);
        if (request.fetchOffset() >= node.log.endOffset() && !highWatermarkMoved
                && leader.hasSeenHighWatermark(request.source(), commits.highWatermark())) {
            leader.park(request, node.now() + node.config.fetchMaxWaitTicks());
        } else {
            sendEntries(leader, request);
        }
        if (highWatermarkMoved) {
            answerParkedFetches(leader);
        }
    }

    private void sendEntries(LeaderState leader, FetchRequest request) {
        // Never part of a batch: a member holding part of one could be elected and commit that part. (A fetch from
        // inside a batch, which no correct member sends, gets the rest of that batch first.)
        List<LogEntry> entries = node.log.readBatches(request.fetchOffset(), node.config.fetchMaxEntries(),
                RaftConfig.MAX_FETCH_RESPONSE_BYTES);
        leader.recordHighWatermarkSent(request.source(), commits.highWatermark());
        node.send(new FetchResponse(node.nodeId, request.source(), leader.epoch(), node.nodeId, FetchError.NONE,
                request.fetchOffset(), request.lastFetchedEpoch(), commits.highWatermark(), -1, -1, entries));
    }

    private void answerParkedFetches(LeaderState leader) {
        for (LeaderState.ParkedFetch parked : leader.unparkAll()) {
            sendEntries(leader, parked.request());
        }
    }

    private FetchResponse fetchError(RoleState state, FetchRequest request, FetchError error, OptionalInt leader) {
        return new FetchResponse(node.nodeId, request.source(), state.epoch(), leader.orElse(RaftMessage.NO_LEADER),
                error, request.fetchOffset(), request.lastFetchedEpoch(), commits.highWatermark(), -1, -1, List.of());
    }

    /**
     * Moves the high watermark to the largest offset of this epoch a majority of voters has durably reached, this
     * leader counting its own flushed end. Once the epoch's leader-change record commits, every earlier record has
     * been handed to the state machine: the leader announces it is ready, once per epoch.
     */
    private boolean maybeAdvanceHighWatermark(LeaderState leader) {
        long candidate = leader.majorityEndOffset(node.log.flushedEndOffset(), node.voters().majority());
        if (candidate <= commits.highWatermark()) {
            return false;
        }
        commits.advanceTo(candidate);
        if (!leader.readyAnnounced() && commits.highWatermark() > leader.epochStartOffset()) {
            leader.markReadyAnnounced();
            node.out.leaderReady(new LeaderReady(leader.epoch(), node.log.endOffset()));
        }
        return true;
    }
}
