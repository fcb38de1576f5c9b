package io.kraft.storage.log;

import java.nio.file.Path;

/**
 * The sparse time index of a segment ({@code .timeindex}): entries of (max timestamp so far int64,
 * relative offset int32) with strictly increasing timestamps. The offset is the last offset of the
 * first batch that reached that timestamp, so every earlier batch is older. One slot stays free for
 * the final entry written when the segment becomes inactive.
 */
public final class TimeIndex extends MappedIndex {
    public static final int ENTRY_SIZE_BYTES = 12;
    /** No timestamp: an empty index, or a batch without one. */
    public static final long NO_TIMESTAMP = -1L;

    public TimeIndex(Path file, long baseOffset, int maxIndexBytes) {
        super(file, baseOffset, maxIndexBytes, ENTRY_SIZE_BYTES);
    }

    private long timestampAt(int slot) {
        return buffer().getLong(slot * ENTRY_SIZE_BYTES);
    }

    private long offsetAt(int slot) {
        return baseOffset + buffer().getInt(slot * ENTRY_SIZE_BYTES + 8);
    }

    @Override
    public synchronized boolean isFull() {
        return entriesUnlocked() >= maxEntries() - 1;
    }

    /**
     * Adds (timestamp, offset) when the timestamp is newer than the last entry; older or missing
     * timestamps are skipped because the index only records increases.
     *
     * @param skipFullCheck true for the final entry, which may use the reserved slot
     */
    public synchronized void maybeAppend(long timestampMs, long offset, boolean skipFullCheck) {
        int count = entriesUnlocked();
        if (timestampMs < 0 || (count > 0 && timestampMs <= timestampAt(count - 1))) {
            return;
        }
        if ((!skipFullCheck && isFull()) || count >= maxEntries()) {
            throw new IllegalStateException("time index " + file() + " is full at " + count + " entries");
        }
        long relative = offset - baseOffset;
        if (relative < 0 || relative > Integer.MAX_VALUE || (count > 0 && offset < offsetAt(count - 1))) {
            throw new IllegalArgumentException("offset " + offset + " cannot follow the time index " + file()
                    + " (base " + baseOffset + ")");
        }
        buffer().putLong(count * ENTRY_SIZE_BYTES, timestampMs);
        buffer().putInt(count * ENTRY_SIZE_BYTES + 8, (int) relative);
        setEntries(count + 1);
    }

    /** The last entry with timestamp at most {@code timestampMs}, else (NO_TIMESTAMP, baseOffset). */
    public synchronized TimestampOffset lookup(long timestampMs) {
        int slot = floorSlot(this::timestampAt, timestampMs);
        return slot < 0 ? new TimestampOffset(NO_TIMESTAMP, baseOffset)
                : new TimestampOffset(timestampAt(slot), offsetAt(slot));
    }

    /** The newest entry, else (NO_TIMESTAMP, baseOffset). */
    public synchronized TimestampOffset lastEntry() {
        int count = entriesUnlocked();
        return count == 0 ? new TimestampOffset(NO_TIMESTAMP, baseOffset)
                : new TimestampOffset(timestampAt(count - 1), offsetAt(count - 1));
    }

    public synchronized TimestampOffset entry(int slot) {
        if (slot < 0 || slot >= entriesUnlocked()) {
            throw new IndexOutOfBoundsException("slot " + slot + " of " + entriesUnlocked() + " entries");
        }
        return new TimestampOffset(timestampAt(slot), offsetAt(slot));
    }

    /** Removes every entry whose offset is at least {@code offset}. */
    public synchronized void truncateTo(long offset) {
        setEntries(ceilingSlot(this::offsetAt, offset));
    }

    /** Checks the last two entries only (see {@link OffsetIndex}); lookups verify the entry they use. */
    @Override
    protected void checkEntries(int logSizeBytes) {
        int count = entriesUnlocked();
        for (int slot = Math.max(0, count - 2); slot < count; slot++) {
            long timestamp = timestampAt(slot);
            int relative = buffer().getInt(slot * ENTRY_SIZE_BYTES + 8);
            boolean ordered = slot == 0 || (timestamp > timestampAt(slot - 1)
                    && relative >= buffer().getInt((slot - 1) * ENTRY_SIZE_BYTES + 8));
            if (timestamp < 0 || relative < 0 || !ordered) {
                throw new CorruptIndexException("time index " + file() + " entry " + slot + " (timestamp "
                        + timestamp + ", relative offset " + relative + ") is out of order");
            }
        }
    }
}
