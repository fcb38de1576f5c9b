package io.kraft.raft;

import io.kraft.raft.RaftMessage.FetchError;
import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.FetchResponse;
import io.kraft.raft.RaftMessage.FetchSnapshotRequest;
import io.kraft.raft.RaftMessage.FetchSnapshotResponse;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Snapshots as Raft sees them: which is the latest (made by the state machine or installed from the leader), when
 * the log prefix it covers may go, serving it in checksummed chunks to members below the leader's log start, and on
 * such a member fetching it chunk by chunk, resuming after failures and installing it.
 */
final class SnapshotTransfer {
    private final NodeContext node;
    private final CommitTracker commits;
    /** The newest snapshot the state machine made or this node installed: what a lagging fetcher is sent. */
    private SnapshotId latestSnapshot;
    /** The snapshot a follower or observer is fetching from its leader, or null. */
    private SnapshotId fetching;
    /** Where the stream answering the outstanding snapshot request ends (unless the snapshot ends first). */
    private long requestEndBytes;
    private long rejectedChunks;
    private String lastError;

    SnapshotTransfer(NodeContext node, CommitTracker commits) {
        this.node = node;
        this.commits = commits;
    }

    /**
     * Reconciles the log with the latest snapshot after a restart. A crash between installing a snapshot and
     * resetting the log leaves a log that does not continue the snapshot; it is reset now.
     */
    void restore() {
        RaftLog log = node.log;
        Optional<SnapshotId> latest = node.snapshots.latest();
        if (latest.isEmpty()) {
            if (log.startOffset() > 0) {
                throw new IllegalStateException("the raft log starts at " + log.startOffset()
                        + " but no snapshot covers the offsets below it");
            }
            return;
        }
        SnapshotId snapshot = latest.get();
        if (log.startOffset() > snapshot.endOffset()) {
            throw new IllegalStateException("the raft log starts at " + log.startOffset()
                    + " past the end of the latest snapshot " + snapshot);
        }
        long end = snapshot.endOffset();
        boolean continues = log.endOffset() >= end
                && (end == log.startOffset() ? log.endOffsetForEpoch(snapshot.epoch()).epoch() == snapshot.epoch()
                : log.epochOf(end - 1) == snapshot.epoch());
        if (!continues) {
            log.deletePrefix(snapshot);
        }
        latestSnapshot = snapshot;
        commits.startFrom(snapshot);
    }

    Optional<SnapshotId> latest() {
        return Optional.ofNullable(latestSnapshot);
    }

    long rejectedChunks() {
        return rejectedChunks;
    }

    Optional<String> lastError() {
        return Optional.ofNullable(lastError);
    }

    /** The state machine stored snapshot {@code id}; see {@link RaftNode#snapshotCreated}. */
    void snapshotCreated(SnapshotId id) {
        if (id.endOffset() > commits.nextOffsetToDeliver()) {
            throw new IllegalArgumentException("snapshot " + id + " ends past the records handed to the state machine ("
                    + commits.nextOffsetToDeliver() + ")");
        }
        if (!node.snapshots.contains(id)) {
            throw new IllegalArgumentException("snapshot " + id + " is not in the snapshot store");
        }
        if (id.endOffset() > node.log.startOffset() && node.log.epochOf(id.endOffset() - 1) != id.epoch()) {
            throw new IllegalArgumentException("snapshot " + id + " does not match the log: the record at "
                    + (id.endOffset() - 1) + " has epoch " + node.log.epochOf(id.endOffset() - 1));
        }
        if (latestSnapshot == null || id.compareTo(latestSnapshot) > 0) {
            latestSnapshot = id;
        }
    }

    /** Deletes the log prefix a recorded snapshot covers; see {@link RaftNode#deleteLogPrefix}. */
    void deleteLogPrefix(SnapshotId id) {
        if (latestSnapshot == null || id.compareTo(latestSnapshot) > 0 || !node.snapshots.contains(id)) {
            throw new IllegalArgumentException("snapshot " + id + " was not recorded with snapshotCreated");
        }
        if (id.endOffset() > node.log.startOffset()) {
            node.log.deletePrefix(id);
        }
    }

    // ---------------------------------------------------------------- serving (leader)

    /** The fetcher is below our log start (as KRaft answers): it must fetch our latest snapshot first. */
    void answerWithSnapshotToFetch(LeaderState leader, FetchRequest request) {
        if (latestSnapshot == null || latestSnapshot.endOffset() < node.log.startOffset()) {
            throw new IllegalStateException("node " + node.nodeId + ": the log starts at " + node.log.startOffset()
                    + " but no snapshot reaches it");
        }
        leader.recordContact(request.source(), node.now());
        node.send(new FetchResponse(node.nodeId, request.source(), leader.epoch(), node.nodeId, FetchError.NONE,
                request.fetchOffset(), request.lastFetchedEpoch(), commits.highWatermark(), -1, -1, List.of(),
                latestSnapshot));
    }

    /** Streams the requested range back as chunks, each with its own position and checksum. */
    void serveChunks(LeaderState leader, FetchSnapshotRequest request) {
        FetchError error = FetchError.NONE;
        if (request.epoch() != leader.epoch()) {
            error = request.epoch() < leader.epoch() ? FetchError.FENCED_LEADER_EPOCH : FetchError.UNKNOWN_LEADER_EPOCH;
        } else if (!node.snapshots.contains(request.snapshotId())) {
            error = FetchError.SNAPSHOT_NOT_FOUND;
        } else if (request.position() < 0 || request.position() > node.snapshots.sizeBytes(request.snapshotId())) {
            error = FetchError.POSITION_OUT_OF_RANGE;
        }
        if (error != FetchError.NONE) {
            sendError(leader, request, error);
            return;
        }
        leader.recordContact(request.source(), node.now());
        long sizeBytes = node.snapshots.sizeBytes(request.snapshotId());
        long end = Math.min(sizeBytes, request.position() + Math.max(0, Math.min(request.maxBytes(),
                RaftConfig.MAX_SNAPSHOT_FETCH_BYTES)));
        long position = request.position();
        do {
            int length = (int) Math.min(node.config.snapshotChunkBytes(), end - position);
            byte[] data = node.snapshots.read(request.snapshotId(), position, length);
            node.send(new FetchSnapshotResponse(node.nodeId, request.source(), leader.epoch(), node.nodeId,
                    FetchError.NONE, request.snapshotId(), sizeBytes, position, data, Crc32c.of(data),
                    position + length >= end));
            position += length;
        } while (position < end);
    }

    /** A node that does not lead refuses to serve snapshot chunks. */
    void refuseChunks(RoleState state, FetchSnapshotRequest request) {
        sendError(state, request, request.epoch() < state.epoch() ? FetchError.FENCED_LEADER_EPOCH
                : FetchError.NOT_LEADER);
    }

    private void sendError(RoleState state, FetchSnapshotRequest request, FetchError error) {
        node.send(new FetchSnapshotResponse(node.nodeId, request.source(), state.epoch(),
                NodeContext.leaderOrNone(state), error, request.snapshotId(), -1, request.position(), new byte[0], 0,
                true));
    }

    // ---------------------------------------------------------------- fetching (follower, observer)

    boolean isFetching() {
        return fetching != null;
    }

    /** The leader answered a fetch below its log start with the snapshot to fetch first. */
    void startFetching(SnapshotId id) {
        fetching = id;
    }

    /** A new leader says itself which snapshot it wants fetched; the partial data stays for a resumption. */
    void stopFetching() {
        fetching = null;
    }

    /** Asks {@code leaderId} for the next range of the snapshot being fetched, from what was already received. */
    void requestChunks(RoleState state, int leaderId) {
        long position = node.snapshots.receivedBytes(fetching);
        requestEndBytes = position + RaftConfig.MAX_SNAPSHOT_FETCH_BYTES;
        node.send(new RaftMessage.FetchSnapshotRequest(node.nodeId, leaderId, state.epoch(), fetching, position,
                RaftConfig.MAX_SNAPSHOT_FETCH_BYTES));
    }

    void onChunk(FetchingStep step, FetchSnapshotResponse response) {
        RoleState state = step.state();
        FetchSession session = step.fetchSession();
        SnapshotId id = response.snapshotId();
        if (response.epoch() != state.epoch() || !state.leaderId().equals(OptionalInt.of(response.source()))
                || !id.equals(fetching) || response.position() != node.snapshots.receivedBytes(id)) {
            // Stale, duplicate, not from our leader, or after a lost chunk: the request timeout asks again.
            return;
        }
        if (response.error() != FetchError.NONE) {
            session.answered();
            if (response.error() == FetchError.NOT_LEADER) {
                step.loseLeader();
                return;
            }
            fetching = null; // the leader moved on to a newer snapshot: ask again which one
            step.maybeSendFetch();
            return;
        }
        session.contacted(node.now() + node.config.fetchTimeoutTicks());
        try {
            node.snapshots.receive(id, response.position(), response.data(), response.crc32c());
            long received = node.snapshots.receivedBytes(id);
            if (received >= response.sizeBytes()) {
                session.answered();
                node.snapshots.install(id);
                install(id);
            } else if (received >= requestEndBytes) {
                session.answered(); // this request's stream is complete: ask for the next range
            }
        } catch (CorruptSnapshotException e) {
            // The chunk (or the whole, when its manifest fails) is dropped untouched and fetched again at once; the
            // rest of this stream no longer lines up and is ignored.
            session.answered();
            rejectedChunks++;
            lastError = e.getMessage();
        }
        step.maybeSendFetch();
    }

    /** A fetched snapshot is durable: the log now starts at its end and the state machine reloads from it. */
    private void install(SnapshotId id) {
        fetching = null;
        node.log.deletePrefix(id);
        node.flushedTo(Math.max(Math.min(node.flushedEndOffset(), node.log.endOffset()), node.log.startOffset()));
        latestSnapshot = id;
        commits.jumpTo(id);
    }
}
