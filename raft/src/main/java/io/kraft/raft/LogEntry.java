package io.kraft.raft;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One replicated log entry: an opaque record, or a control record that marks the start of a leader's epoch or
 * states the voter set.
 *
 * <p>Entries form <em>batches</em>, the unit that replicates, commits and reaches the state machine whole: the
 * records of one {@link RaftNode#append} are one batch, and a control record is a batch of its own. Every entry but
 * a batch's last is {@link EntryType#DATA_CONTINUED}; the last is {@link EntryType#DATA} (or
 * {@link EntryType#LEADER_CHANGE}). A log written before batches were marked holds only single-entry batches.
 */
public record LogEntry(long offset, int epoch, EntryType type, byte[] payload) {

    /** Whether an entry carries application data or is raft's own bookkeeping, and whether it ends its batch. */
    public enum EntryType {
        /** Application data ending its batch (a batch of one record is just this). */
        DATA,
        /** Raft's record opening a leader's epoch, a batch of its own. */
        LEADER_CHANGE,
        /** Application data followed by more records of the same batch. */
        DATA_CONTINUED,
        /** Raft's record of the voter set from this offset on (KIP-853's VotersRecord), a batch of its own. */
        VOTERS;

        /** Whether an entry of this type is the last of its batch. */
        public boolean endsBatch() {
            return this != DATA_CONTINUED;
        }
    }

    public LogEntry {
        if (offset < 0) {
            throw new IllegalArgumentException("log entry offset must be >= 0 but was " + offset);
        }
        if (epoch < 1) {
            throw new IllegalArgumentException("log entry epoch must be >= 1 but was " + epoch);
        }
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(payload, "payload");
    }

    public static LogEntry data(long offset, int epoch, byte[] payload) {
        return new LogEntry(offset, epoch, EntryType.DATA, payload);
    }

    /**
     * The entries of one batch of {@code records} from {@code baseOffset}: every entry but the last marked
     * {@link EntryType#DATA_CONTINUED}.
     */
    public static List<LogEntry> batch(long baseOffset, int epoch, List<byte[]> records) {
        if (records.isEmpty()) {
            throw new IllegalArgumentException("a batch holds at least one record");
        }
        List<LogEntry> entries = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            EntryType type = i == records.size() - 1 ? EntryType.DATA : EntryType.DATA_CONTINUED;
            entries.add(new LogEntry(baseOffset + i, epoch, type, records.get(i)));
        }
        return entries;
    }

    public static LogEntry leaderChange(long offset, int epoch, int leaderId) {
        byte[] payload = new byte[] {
            (byte) (leaderId >>> 24), (byte) (leaderId >>> 16), (byte) (leaderId >>> 8), (byte) leaderId};
        return new LogEntry(offset, epoch, EntryType.LEADER_CHANGE, payload);
    }

    /** A voters record: the voter set from {@code offset} on, committed or not (KIP-853). */
    public static LogEntry voters(long offset, int epoch, VoterSet voters) {
        return new LogEntry(offset, epoch, EntryType.VOTERS, voters.encode());
    }

    /** Whether this entry carries application data, whether or not it ends its batch. */
    public boolean isData() {
        return type == EntryType.DATA || type == EntryType.DATA_CONTINUED;
    }

    /** Whether this entry is the last of its batch: a log or a fetch may end after it, never before. */
    public boolean endsBatch() {
        return type.endsBatch();
    }

    /** Same position, epoch, type and bytes: what log matching compares. */
    public boolean sameContentAs(LogEntry other) {
        return offset == other.offset && epoch == other.epoch && type == other.type
                && Arrays.equals(payload, other.payload);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LogEntry other && sameContentAs(other);
    }

    @Override
    public int hashCode() {
        return Objects.hash(offset, epoch, type, Arrays.hashCode(payload));
    }

    @Override
    public String toString() {
        return "LogEntry(offset=" + offset + ", epoch=" + epoch + ", " + type + ", " + payload.length + " bytes)";
    }
}
