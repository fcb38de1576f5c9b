package io.kraft.storage.log;

import io.kraft.storage.io.DurableFiles;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.IntToLongFunction;

/**
 * The memory-mapped, preallocated file of fixed-size entries under {@link OffsetIndex} and
 * {@link TimeIndex}. Every access is synchronized: lookups from readers may run while the appender
 * adds entries or resizes, and a resize unmaps the old buffer.
 */
abstract class MappedIndex implements AutoCloseable {
    private final int entrySizeBytes;
    protected final long baseOffset;
    private volatile Path file;
    private int maxIndexBytes;
    private MappedByteBuffer mmap;
    private int entries;
    private int maxEntries;
    /** File length as found on open, then as last resized; a partial entry means damage. */
    private long fileLengthBytes;

    MappedIndex(Path file, long baseOffset, int maxIndexBytes, int entrySizeBytes) {
        this.file = file;
        this.baseOffset = baseOffset;
        this.entrySizeBytes = entrySizeBytes;
        this.maxIndexBytes = roundDown(maxIndexBytes);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            long length = raf.length();
            fileLengthBytes = length;
            if (length == 0) {
                raf.setLength(this.maxIndexBytes);
                entries = 0;
            } else {
                // A file preallocated by an unclean stop keeps its zero tail here; sanityCheck catches it.
                entries = (int) Math.min(Integer.MAX_VALUE, length / entrySizeBytes);
                if (length > Integer.MAX_VALUE) {
                    raf.setLength(roundDown(Integer.MAX_VALUE));
                }
            }
            mmap = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, raf.length());
            maxEntries = mmap.limit() / entrySizeBytes;
        } catch (IOException e) {
            throw new LogStorageException("cannot open index " + file, e);
        }
    }

    private int roundDown(int bytes) {
        return bytes - bytes % entrySizeBytes;
    }

    public Path file() {
        return file;
    }

    public long baseOffset() {
        return baseOffset;
    }

    public synchronized int entries() {
        return entries;
    }

    public synchronized int maxEntries() {
        return maxEntries;
    }

    public synchronized boolean isFull() {
        return entries >= maxEntries;
    }

    /** Bytes the file currently occupies (preallocated or trimmed). */
    public synchronized int sizeBytes() {
        return maxEntries * entrySizeBytes;
    }

    protected final MappedByteBuffer buffer() {
        if (mmap == null) {
            throw new IllegalStateException("index " + file + " is closed");
        }
        return mmap;
    }

    protected final int entrySizeBytes() {
        return entrySizeBytes;
    }

    protected final int entriesUnlocked() {
        return entries;
    }

    protected final void setEntries(int count) {
        entries = count;
    }

    /** Largest slot whose key is at most {@code target}, or -1; keys must be non-decreasing. */
    protected final int floorSlot(IntToLongFunction keyOfSlot, long target) {
        buffer(); // fails on a closed index even when it has no entries
        int lo = 0;
        int hi = entries - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (keyOfSlot.applyAsLong(mid) <= target) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** Smallest slot whose key is at least {@code target}, or {@code entries}; keys must be non-decreasing. */
    protected final int ceilingSlot(IntToLongFunction keyOfSlot, long target) {
        buffer();
        int lo = 0;
        int hi = entries;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (keyOfSlot.applyAsLong(mid) < target) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Checks the file length is whole entries, then the subclass's entry invariants. */
    public synchronized void sanityCheck(int logSizeBytes) {
        if (fileLengthBytes % entrySizeBytes != 0) {
            throw new CorruptIndexException("index " + file + " has length " + fileLengthBytes
                    + ", not a multiple of the entry size " + entrySizeBytes);
        }
        checkEntries(logSizeBytes);
    }

    protected abstract void checkEntries(int logSizeBytes);

    /** Drops every entry and restores the preallocated size, before a rebuild. */
    public synchronized void reset() {
        entries = 0;
        remap(maxIndexBytes);
    }

    /** Grows (active segment) or shrinks the file to {@code newMaxIndexBytes}, keeping every entry. */
    public synchronized void resize(int newMaxIndexBytes) {
        maxIndexBytes = roundDown(newMaxIndexBytes);
        remap(Math.max(maxIndexBytes, entries * entrySizeBytes));
    }

    /** Shrinks the file to exactly its entries, as for an inactive segment. */
    public synchronized void trimToValidSize() {
        remap(entries * entrySizeBytes);
    }

    private void remap(int lengthBytes) {
        int rounded = roundDown(lengthBytes);
        if (mmap != null && mmap.limit() == rounded) {
            return;
        }
        MappedByteBuffer old = buffer();
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            // No force here: unmapping keeps dirty pages in the page cache; flush() is the durability point.
            mmap = null;
            MappedBuffers.unmap(old);
            raf.setLength(rounded);
            mmap = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, rounded);
            maxEntries = rounded / entrySizeBytes;
            fileLengthBytes = rounded;
        } catch (IOException e) {
            throw new LogStorageException("cannot resize index " + file + " to " + rounded + " bytes", e);
        }
    }

    public synchronized void flush() {
        buffer().force();
    }

    public void renameTo(Path target) {
        try {
            if (Files.exists(file)) {
                DurableFiles.atomicMove(file, target);
            }
            file = target;
        } catch (IOException e) {
            throw new LogStorageException("cannot rename index " + file + " to " + target, e);
        }
    }

    /** Trims to the entries and unmaps; the file stays. */
    @Override
    public synchronized void close() {
        if (mmap == null) {
            return;
        }
        trimToValidSize();
        closeHandler();
    }

    /** Unmaps without trimming (the file is about to be deleted). */
    public synchronized void closeHandler() {
        MappedByteBuffer old = mmap;
        mmap = null;
        MappedBuffers.unmap(old);
    }

    public synchronized void deleteIfExists() {
        closeHandler();
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new LogStorageException("cannot delete index " + file, e);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(" + file + ", entries=" + entries + ")";
    }
}
