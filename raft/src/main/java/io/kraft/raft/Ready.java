package io.kraft.raft;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Work the driver must carry out for a {@link RaftNode}, which itself writes nothing: like etcd's raft, the core
 * only reads the log and the snapshots and hands every write out here. The driver carries out one Ready in this
 * order, then asks for the next:
 *
 * <ol>
 *   <li>{@link #quorumState}: write it durably before anything else. Messages may depend on it (a vote granted, an
 *       epoch entered), which is why it comes first.</li>
 *   <li>{@link #snapshotWrites}: append each chunk to its incoming snapshot, then install the snapshot named, and
 *       report the outcome with {@link RaftNode#handleSnapshotInstalled} or {@link RaftNode#handleSnapshotRejected}
 *       (see {@link SnapshotWrites#applyTo}). The node fetches nothing until it has the outcome.</li>
 *   <li>{@link #logWrites}: delete the prefix, truncate, append, in that order (see {@link LogWrites#applyTo}).
 *       These may be deferred, say to a storage thread, as long as the writes of successive Readies are applied in
 *       the order they were handed out; the node keeps every entry it has not seen reported durable in memory
 *       (etcd's "unstable" entries) and reads only what a flush report covers from the log, so nothing it does
 *       depends on when an unflushed write lands.</li>
 *   <li>{@link #messages}: send them. None acknowledges an entry that is not durable: followers fetch (which is
 *       their acknowledgement) only past entries a flush report covered, so a message may overtake the log writes
 *       of its own Ready.</li>
 *   <li>If {@link LogWrites#flush()}, flush the log, now or later, then report it with
 *       {@link RaftNode#handleLogFlushed}(the log's end offset). A report covers the log as it stands, so every
 *       log write handed out before it must have been applied by then. Only a report lets a follower acknowledge
 *       its entries and a leader count its own copy.</li>
 *   <li>The state machine: {@link #loadSnapshot} (replace its state with that snapshot from the store) before the
 *       {@link #committed} batches that follow it, then {@link #leaderChange}, then {@link #leaderReady}
 *       ({@link RaftListener} says what this order guarantees).</li>
 * </ol>
 *
 * A crash may lose any write not yet durable (unflushed appends, a deferred truncation or prefix deletion, chunks
 * of an incoming snapshot): the node never relied on them, and a restarted node reconciles its log with its latest
 * snapshot.
 */
public record Ready(Optional<QuorumState> quorumState, SnapshotWrites snapshotWrites, LogWrites logWrites,
                    List<RaftMessage> messages, Optional<SnapshotId> loadSnapshot, List<CommittedBatch> committed,
                    Optional<LeaderAndEpoch> leaderChange, Optional<LeaderReady> leaderReady) {

    public Ready {
        messages = List.copyOf(messages);
        committed = List.copyOf(committed);
    }

    /** Whether the log must be flushed (and the flush reported) after this Ready's appends. */
    public boolean flushLog() {
        return logWrites.flush();
    }

    public boolean isEmpty() {
        return quorumState.isEmpty() && snapshotWrites.isEmpty() && logWrites.isEmpty() && messages.isEmpty()
                && loadSnapshot.isEmpty() && committed.isEmpty() && leaderChange.isEmpty() && leaderReady.isEmpty();
    }

    /**
     * Writes to the log, applied in this order: delete the prefix {@code deletePrefix} covers, truncate to
     * {@code truncateTo}, append {@code append}; then, if {@code flush}, flush and report.
     */
    public record LogWrites(Optional<SnapshotId> deletePrefix, OptionalLong truncateTo, List<LogEntry> append,
                            boolean flush) {
        public static final LogWrites NONE = new LogWrites(Optional.empty(), OptionalLong.empty(), List.of(), false);

        public LogWrites {
            append = List.copyOf(append);
        }

        public boolean isEmpty() {
            return deletePrefix.isEmpty() && truncateTo.isEmpty() && append.isEmpty() && !flush;
        }

        /** Applies the writes to {@code log} in their order; flushing is the caller's (it may come later). */
        public void applyTo(RaftLog log) {
            deletePrefix.ifPresent(log::deletePrefix);
            truncateTo.ifPresent(log::truncateTo);
            if (!append.isEmpty()) {
                log.append(append);
            }
        }
    }

    /** Chunks to append to incoming snapshots (already checked against their CRC32C), then a snapshot to install. */
    public record SnapshotWrites(List<SnapshotChunk> chunks, Optional<SnapshotId> install) {
        public static final SnapshotWrites NONE = new SnapshotWrites(List.of(), Optional.empty());

        public SnapshotWrites {
            chunks = List.copyOf(chunks);
        }

        public boolean isEmpty() {
            return chunks.isEmpty() && install.isEmpty();
        }

        /**
         * Appends the chunks to {@code store}, installs the snapshot if one is named, and reports the outcome to
         * {@code node}: installed, or rejected (the whole failed its verification; the store dropped it).
         */
        public void applyTo(SnapshotStore store, RaftNode node) {
            for (SnapshotChunk chunk : chunks) {
                store.receive(chunk.snapshotId(), chunk.position(), chunk.data(), chunk.crc32c());
            }
            if (install.isPresent()) {
                try {
                    store.install(install.get());
                } catch (CorruptSnapshotException e) {
                    node.handleSnapshotRejected(install.get(), e.getMessage());
                    return;
                }
                node.handleSnapshotInstalled(install.get());
            }
        }
    }

    /** A piece of an incoming snapshot's transfer form at {@code position}, with the CRC32C of {@code data}. */
    public record SnapshotChunk(SnapshotId snapshotId, long position, byte[] data, int crc32c) {
    }
}
