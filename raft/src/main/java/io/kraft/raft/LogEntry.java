package io.kraft.raft;

import java.util.Arrays;
import java.util.Objects;

/** One replicated log entry: an opaque record, or a control record that marks the start of a leader's epoch. */
public record LogEntry(long offset, int epoch, EntryType type, byte[] payload) {

    /** Whether an entry carries application data or is raft's own bookkeeping. */
    public enum EntryType { DATA, LEADER_CHANGE }

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

    public static LogEntry leaderChange(long offset, int epoch, int leaderId) {
        byte[] payload = new byte[] {
            (byte) (leaderId >>> 24), (byte) (leaderId >>> 16), (byte) (leaderId >>> 8), (byte) leaderId};
        return new LogEntry(offset, epoch, EntryType.LEADER_CHANGE, payload);
    }

    public boolean isData() {
        return type == EntryType.DATA;
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
