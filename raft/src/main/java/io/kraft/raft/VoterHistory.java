package io.kraft.raft;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The voter set as the log states it (KIP-853): the bootstrap set, then every voters record in the log. A node uses
 * the latest set in its log, committed or not; a truncation rolls back to the set before the cut, and a deleted
 * prefix leaves its newest set as the base. The static configuration (kraft.version 0) is a bootstrap set that no
 * record ever follows.
 */
final class VoterHistory {
    private static final int SCAN_CHUNK_ENTRIES = 1024;

    private final boolean bootstrappedDynamic;
    private VoterSet base;
    private final TreeMap<Long, VoterSet> changes = new TreeMap<>();

    /**
     * The history of {@code log} as found at startup, on top of {@code bootstrap}; {@code dynamic} says the bootstrap
     * came from a checkpoint {@code format} wrote (kraft.version 1) rather than {@code controller.quorum.voters}.
     */
    VoterHistory(VoterSet bootstrap, boolean dynamic, ReadableRaftLog log) {
        this.base = bootstrap;
        this.bootstrappedDynamic = dynamic;
        boolean prefixDeleted = log.startOffset() > 0;
        for (long offset = log.startOffset(); offset < log.endOffset(); ) {
            List<LogEntry> entries = log.read(offset, SCAN_CHUNK_ENTRIES);
            if (entries.isEmpty()) {
                break;
            }
            for (LogEntry entry : entries) {
                appended(entry);
            }
            offset = entries.get(entries.size() - 1).offset() + 1;
        }
        if (dynamic && prefixDeleted && changes.isEmpty()) {
            // Only a fetched snapshot leaves a log without a voters record (our own never delete the last): the set
            // in force is unknown until the leader states it again, and the bootstrap may be long out of date.
            base = VoterSet.empty();
        }
    }

    /** The set in force: the latest the log states. */
    VoterSet latest() {
        Map.Entry<Long, VoterSet> last = changes.lastEntry();
        return last == null ? base : last.getValue();
    }

    /** The set in force at {@code offset}: the latest stated at or below it. */
    VoterSet at(long offset) {
        Map.Entry<Long, VoterSet> entry = changes.floorEntry(offset);
        return entry == null ? base : entry.getValue();
    }

    /** Offset of the latest voters record still in the log, if any. */
    OptionalLong latestChangeOffset() {
        return changes.isEmpty() ? OptionalLong.empty() : OptionalLong.of(changes.lastKey());
    }

    /** Whether voters may change (kraft.version 1): a bootstrap checkpoint, or a voters record, says so. */
    boolean dynamic() {
        return bootstrappedDynamic || !changes.isEmpty() || base.voters().values().stream()
                .anyMatch(v -> !v.directoryId().equals(Voter.UNKNOWN_DIRECTORY));
    }

    void appended(LogEntry entry) {
        if (entry.type() == LogEntry.EntryType.VOTERS) {
            changes.put(entry.offset(), VoterSet.decode(entry.payload()));
        }
    }

    void truncatedTo(long offset) {
        changes.tailMap(offset, true).clear();
    }

    /**
     * Whether this node's own snapshot ending at {@code endOffset} may become the log start: in a dynamic quorum only
     * if a voters record remains in the log after it, so that a restart finds the set in the log.
     */
    boolean allowsPrefixDeletion(long endOffset) {
        return !dynamic() || (!changes.isEmpty() && changes.lastKey() >= endOffset);
    }

    /**
     * A snapshot fetched from the leader replaced the log up to its end. Our own history below it may be stale (we
     * were behind), so unless a voters record remains the set is unknown, and the node only observes until the
     * leader's next statement of the set reaches it.
     */
    void snapshotInstalled() {
        if (bootstrappedDynamic && changes.isEmpty()) {
            base = VoterSet.empty();
        }
    }

    /** The log now starts at {@code startOffset}: the newest set below it becomes the base. */
    void prefixDeleted(long startOffset) {
        Map<Long, VoterSet> below = changes.headMap(startOffset, false);
        if (!below.isEmpty()) {
            base = changes.floorEntry(startOffset - 1).getValue();
            below.clear();
        }
    }
}
