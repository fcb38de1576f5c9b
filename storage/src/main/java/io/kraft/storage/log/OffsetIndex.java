package io.kraft.storage.log;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The sparse offset index of a segment ({@code .index}): entries of (offset relative to the segment's
 * base as int32, file position of the batch as int32), where the offset is the batch's last offset.
 * A floor lookup gives a position at or before the batch holding any offset.
 */
public final class OffsetIndex extends MappedIndex {
    public static final int ENTRY_SIZE_BYTES = 8;

    public OffsetIndex(Path file, long baseOffset, int maxIndexBytes) {
        super(file, baseOffset, maxIndexBytes, ENTRY_SIZE_BYTES);
    }

    private long offsetAt(int slot) {
        return baseOffset + buffer().getInt(slot * ENTRY_SIZE_BYTES);
    }

    private int positionAt(int slot) {
        return buffer().getInt(slot * ENTRY_SIZE_BYTES + 4);
    }

    /** Adds an entry; offsets must strictly increase and fit in an int relative to the base. */
    public synchronized void append(long offset, int position) {
        int count = entriesUnlocked();
        if (count >= maxEntries()) {
            throw new IllegalStateException("offset index " + file() + " is full at " + count + " entries");
        }
        long relative = offset - baseOffset;
        if (relative < 0 || relative > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("offset " + offset + " does not fit index with base " + baseOffset);
        }
        if (count > 0 && offset <= offsetAt(count - 1)) {
            throw new IllegalArgumentException("offset " + offset + " is not after the last indexed offset "
                    + offsetAt(count - 1) + " in " + file());
        }
        buffer().putInt(count * ENTRY_SIZE_BYTES, (int) relative);
        buffer().putInt(count * ENTRY_SIZE_BYTES + 4, position);
        setEntries(count + 1);
    }

    /** The last entry whose offset is at most {@code targetOffset}, else (baseOffset, 0). */
    public synchronized OffsetPosition lookup(long targetOffset) {
        int slot = floorSlot(this::offsetAt, targetOffset);
        return slot < 0 ? new OffsetPosition(baseOffset, 0) : new OffsetPosition(offsetAt(slot), positionAt(slot));
    }

    /** The last entry whose position is at most {@code position}, else (baseOffset, 0). */
    public synchronized OffsetPosition lookupByPosition(int position) {
        int slot = floorSlot(this::positionAt, position);
        return slot < 0 ? new OffsetPosition(baseOffset, 0) : new OffsetPosition(offsetAt(slot), positionAt(slot));
    }

    /**
     * The first entry whose position is at least {@code position}, if any: its offset bounds every offset stored
     * before that position (a read_committed fetch's upper bound for aborted transactions).
     */
    public synchronized Optional<OffsetPosition> firstEntryAtOrAfterPosition(int position) {
        int slot = ceilingSlot(this::positionAt, position);
        return slot >= entriesUnlocked() ? Optional.empty()
                : Optional.of(new OffsetPosition(offsetAt(slot), positionAt(slot)));
    }

    public synchronized OffsetPosition entry(int slot) {
        if (slot < 0 || slot >= entriesUnlocked()) {
            throw new IndexOutOfBoundsException("slot " + slot + " of " + entriesUnlocked() + " entries");
        }
        return new OffsetPosition(offsetAt(slot), positionAt(slot));
    }

    public synchronized Optional<OffsetPosition> lastEntry() {
        int count = entriesUnlocked();
        return count == 0 ? Optional.empty() : Optional.of(new OffsetPosition(offsetAt(count - 1), positionAt(count - 1)));
    }

    /** Removes every entry whose offset is at least {@code offset}. */
    public synchronized void truncateTo(long offset) {
        setEntries(ceilingSlot(this::offsetAt, offset));
    }

    /**
     * Checks the last two entries only, so opening thousands of segments stays cheap: that catches the
     * zero-filled tail of a preallocated file and entries past the log. Damage further in is caught
     * when a lookup verifies the entry it uses against the batch it names.
     */
    @Override
    protected void checkEntries(int logSizeBytes) {
        int count = entriesUnlocked();
        for (int slot = Math.max(0, count - 2); slot < count; slot++) {
            int relative = buffer().getInt(slot * ENTRY_SIZE_BYTES);
            int position = positionAt(slot);
            boolean ordered = slot == 0 || (relative > buffer().getInt((slot - 1) * ENTRY_SIZE_BYTES)
                    && position > positionAt(slot - 1));
            if (relative < 0 || position < 0 || position >= logSizeBytes || !ordered) {
                throw new CorruptIndexException("offset index " + file() + " entry " + slot + " (relative offset "
                        + relative + ", position " + position + ") is out of order or past the log's "
                        + logSizeBytes + " bytes");
            }
        }
    }
}
