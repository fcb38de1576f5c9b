package io.kraft.raft;

import io.kraft.raft.RaftMessage.FetchError;
import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.FetchResponse;
import io.kraft.raft.RaftMessage.FetchSnapshotRequest;
import io.kraft.raft.RaftMessage.FetchSnapshotResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Snapshots as Raft sees them: which is the latest (made by the state machine or installed from the leader), when
 * the log prefix it covers may go, serving it in checksummed chunks to members below the leader's log start, and on
 * such a member fetching it chunk by chunk, resuming after failures and having it installed. It writes nothing
 * itself: verified chunks and the install go out through the {@link Ready}, and the driver reports how the install
 * went.
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
    /** The complete snapshot handed out for installing, until the driver reports the outcome; or null. */
    private SnapshotId installing;
    /**
     * Bytes received of each incoming snapshot this run, counting chunks handed out but maybe not yet written: where
     * the next chunk goes. Read from the store the first time a snapshot is fetched (resuming an earlier run).
     */
    private final Map<SnapshotId, Long> receivedBytes = new HashMap<>();
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
        LogView log = node.log;
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
        if (id.endOffset() > node.log.startOffset() && !node.log.batchEndsAt(id.endOffset())) {
            // The log would start inside a batch, and a member installing the snapshot would get part of it.
            throw new IllegalArgumentException("snapshot " + id + " ends inside a batch of the log");
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
        if (id.endOffset() > node.log.startOffset() && node.voterHistory.allowsPrefixDeletion(id.endOffset())) {
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

    /** Whether a complete snapshot was handed out for installing and the driver has not said how that went. */
    boolean isInstalling() {
        return installing != null;
    }

    private long receivedBytes(SnapshotId id) {
        return receivedBytes.computeIfAbsent(id, node.snapshots::receivedBytes);
    }

    /** Asks {@code leaderId} for the next range of the snapshot being fetched, from what was already received. */
    void requestChunks(RoleState state, int leaderId) {
        long position = receivedBytes(fetching);
        requestEndBytes = position + RaftConfig.MAX_SNAPSHOT_FETCH_BYTES;
        node.send(new RaftMessage.FetchSnapshotRequest(node.nodeId, leaderId, state.epoch(), fetching, position,
                RaftConfig.MAX_SNAPSHOT_FETCH_BYTES));
    }

    void onChunk(FetchingStep step, FetchSnapshotResponse response) {
        RoleState state = step.state();
        FetchSession session = step.fetchSession();
        SnapshotId id = response.snapshotId();
        if (response.epoch() != state.epoch() || !state.leaderId().equals(OptionalInt.of(response.source()))
                || !id.equals(fetching) || response.position() != receivedBytes(id)) {
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
        int actualCrc = Crc32c.of(response.data());
        if (actualCrc != response.crc32c()) {
            // The chunk is dropped and fetched again at once; the rest of this stream no longer lines up and is
            // ignored.
            session.answered();
            rejected(String.format("chunk of snapshot %s at position %d (%d bytes) has CRC32C %08x but carries %08x: "
                    + "rejected", id, response.position(), response.data().length, actualCrc, response.crc32c()));
        } else {
            node.out.writeSnapshotChunk(new Ready.SnapshotChunk(id, response.position(), response.data(),
                    response.crc32c()));
            long received = response.position() + response.data().length;
            receivedBytes.put(id, received);
            if (received >= response.sizeBytes()) {
                session.answered();
                node.out.installSnapshot(id);
                installing = id;
            } else if (received >= requestEndBytes) {
                session.answered(); // this request's stream is complete: ask for the next range
            }
        }
        step.maybeSendFetch();
    }

    /**
     * The driver installed the fetched snapshot, durably: the log now starts at its end and the state machine
     * reloads from it.
     */
    void installed(SnapshotId id) {
        requireInstalling(id);
        installing = null;
        receivedBytes.keySet().removeIf(other -> other.compareTo(id) <= 0); // the store dropped those transfers
        fetching = null;
        node.log.deletePrefix(id);
        node.voterHistory.snapshotInstalled();
        node.log.flushedTo(Math.max(Math.min(node.log.flushedEndOffset(), node.log.endOffset()),
                node.log.startOffset()));
        latestSnapshot = id;
        commits.jumpTo(id);
    }

    /** The fetched snapshot failed its verification as a whole; the store dropped it, so it is fetched again. */
    void installRejected(SnapshotId id, String reason) {
        requireInstalling(id);
        installing = null;
        receivedBytes.put(id, 0L);
        rejected(reason);
    }

    private void requireInstalling(SnapshotId id) {
        if (!id.equals(installing)) {
            throw new IllegalStateException("node " + node.nodeId + ": install of snapshot " + id + " reported, but "
                    + (installing == null ? "none" : installing) + " was handed out");
        }
    }

    private void rejected(String reason) {
        rejectedChunks++;
        lastError = reason;
    }
}
