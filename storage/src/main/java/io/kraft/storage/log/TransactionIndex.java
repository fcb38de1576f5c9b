package io.kraft.storage.log;

import io.kraft.storage.io.DurableFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The aborted-transaction index of one segment ({@code .txnindex}, Kafka's layout): one 34-byte big-endian entry
 * per ABORT marker in the segment, in marker order: version int16 (0), producer id int64, first offset int64, last
 * offset (the marker's) int64, last stable offset int64. A read_committed fetch collects the entries overlapping
 * what it returns; the consumer then drops the aborted producers' batches.
 *
 * <p>Most segments hold no aborted transaction, so the file is created with the first entry: a segment without
 * a {@code .txnindex} has none. Appends come under the log's lock; collections may run concurrently and read
 * only below the size published after each append. Entries are durable once {@link #flush} ran (with the
 * segment); recovery rebuilds the index of every segment it re-validates.
 */
public final class TransactionIndex implements AutoCloseable {
    public static final short VERSION = 0;
    public static final int ENTRY_SIZE_BYTES = 2 + 8 + 8 + 8 + 8;

    private volatile Path file;
    private FileChannel channel;
    /** Bytes of whole entries, published after each append (readers never look past it). */
    private volatile int sizeBytes;
    /** The marker offset of the last entry, -1 when empty: markers only move forward. */
    private long lastOffset = -1;

    /** Opens the index of a segment; an existing file is read as found (call {@link #sanityCheck()}). */
    public TransactionIndex(Path file) {
        this.file = file;
        try {
            if (Files.exists(file)) {
                this.channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                long size = channel.size();
                this.sizeBytes = (int) Math.min(size, Integer.MAX_VALUE);
                int whole = sizeBytes - sizeBytes % ENTRY_SIZE_BYTES;
                if (whole > 0) {
                    try {
                        lastOffset = readEntry(whole - ENTRY_SIZE_BYTES).lastOffset();
                    } catch (CorruptIndexException e) {
                        lastOffset = -1; // sanityCheck reports it, and recovery rebuilds the index
                    }
                }
            }
        } catch (IOException e) {
            throw new LogStorageException("cannot open transaction index " + file, e);
        }
    }

    public Path file() {
        return file;
    }

    public int sizeBytes() {
        return sizeBytes;
    }

    public boolean isEmpty() {
        return sizeBytes == 0;
    }

    /**
     * Appends an entry. Its marker must follow the last entry's.
     *
     * @throws IllegalArgumentException when the marker offset does not increase
     */
    public synchronized void append(AbortedTxn txn) {
        if (txn.lastOffset() <= lastOffset) {
            throw new IllegalArgumentException("aborted transaction " + txn + " does not follow the last marker "
                    + lastOffset + " in " + file);
        }
        ByteBuffer entry = ByteBuffer.allocate(ENTRY_SIZE_BYTES);
        entry.putShort(VERSION).putLong(txn.producerId()).putLong(txn.firstOffset()).putLong(txn.lastOffset())
                .putLong(txn.lastStableOffset()).flip();
        try {
            FileChannel target = openForAppend();
            long at = sizeBytes;
            while (entry.hasRemaining()) {
                at += target.write(entry, at);
            }
        } catch (IOException e) {
            throw new LogStorageException("cannot append to transaction index " + file, e);
        }
        lastOffset = txn.lastOffset();
        sizeBytes += ENTRY_SIZE_BYTES;
    }

    private FileChannel openForAppend() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        }
        return channel;
    }

    /** Every entry, in marker order. */
    public List<AbortedTxn> entries() {
        List<AbortedTxn> entries = new ArrayList<>();
        int size = sizeBytes;
        for (int position = 0; position + ENTRY_SIZE_BYTES <= size; position += ENTRY_SIZE_BYTES) {
            entries.add(readEntry(position));
        }
        return entries;
    }

    /**
     * Adds to {@code out} the transactions that overlap [{@code fetchOffset}, {@code upperBoundOffset}): marker at
     * or after the fetch offset and first offset below the bound.
     *
     * @return true when an entry's last stable offset reached the bound: every transaction that could overlap
     *     the range had completed by then, so later segments need not be searched
     */
    public boolean collect(long fetchOffset, long upperBoundOffset, List<AbortedTxn> out) {
        int size = sizeBytes;
        for (int position = 0; position + ENTRY_SIZE_BYTES <= size; position += ENTRY_SIZE_BYTES) {
            AbortedTxn txn = readEntry(position);
            if (txn.lastOffset() >= fetchOffset && txn.firstOffset() < upperBoundOffset) {
                out.add(txn);
            }
            if (txn.lastStableOffset() >= upperBoundOffset) {
                return true;
            }
        }
        return false;
    }

    private AbortedTxn readEntry(int position) {
        ByteBuffer entry = ByteBuffer.allocate(ENTRY_SIZE_BYTES);
        FileChannel source = channel;
        try {
            while (entry.hasRemaining()) {
                if (source.read(entry, position + entry.position()) < 0) {
                    throw new CorruptIndexException("transaction index " + file + " ends inside the entry at "
                            + position);
                }
            }
        } catch (IOException e) {
            throw new LogStorageException("cannot read transaction index " + file + " at " + position, e);
        }
        entry.flip();
        short version = entry.getShort();
        if (version != VERSION) {
            throw new CorruptIndexException("transaction index " + file + " has an entry of version " + version
                    + " at position " + position);
        }
        long producerId = entry.getLong();
        long first = entry.getLong();
        long last = entry.getLong();
        long lastStable = entry.getLong();
        if (first > last) {
            throw new CorruptIndexException("transaction index " + file + " entry at " + position
                    + " starts at " + first + " after its marker at " + last);
        }
        return new AbortedTxn(producerId, first, last, lastStable);
    }

    /**
     * The load-time check: whole entries, each of version 0, markers increasing.
     *
     * @throws CorruptIndexException naming the problem
     */
    public synchronized void sanityCheck() {
        if (sizeBytes % ENTRY_SIZE_BYTES != 0) {
            throw new CorruptIndexException("transaction index " + file + " has " + sizeBytes
                    + " bytes, not a whole number of " + ENTRY_SIZE_BYTES + "-byte entries");
        }
        long previous = -1;
        for (AbortedTxn txn : entries()) {
            if (txn.lastOffset() <= previous) {
                throw new CorruptIndexException("transaction index " + file + " marker " + txn.lastOffset()
                        + " does not follow " + previous);
            }
            previous = txn.lastOffset();
        }
    }

    /** Removes every entry whose marker is at or after {@code offset} (the log is cut there). */
    public synchronized void truncateTo(long offset) {
        int keep = 0;
        int size = sizeBytes - sizeBytes % ENTRY_SIZE_BYTES;
        long last = -1;
        for (int position = 0; position < size; position += ENTRY_SIZE_BYTES) {
            AbortedTxn txn = readEntry(position);
            if (txn.lastOffset() >= offset) {
                break;
            }
            keep = position + ENTRY_SIZE_BYTES;
            last = txn.lastOffset();
        }
        truncateFile(keep);
        lastOffset = last;
    }

    /** Removes every entry (the segment is being rebuilt). */
    public synchronized void reset() {
        truncateFile(0);
        lastOffset = -1;
    }

    private void truncateFile(int size) {
        if (channel == null || size == sizeBytes) {
            sizeBytes = channel == null ? 0 : size;
            return;
        }
        sizeBytes = size;
        try {
            channel.truncate(size);
        } catch (IOException e) {
            throw new LogStorageException("cannot truncate transaction index " + file + " to " + size + " bytes", e);
        }
    }

    /** fsyncs the file, if there is one. */
    public synchronized void flush() {
        if (channel == null) {
            return;
        }
        try {
            channel.force(true);
        } catch (IOException e) {
            throw new LogStorageException("cannot flush transaction index " + file, e);
        }
    }

    /** Renames the file (when it exists); the open channel keeps working. */
    public synchronized void renameTo(Path target) {
        try {
            if (channel != null || Files.exists(file)) {
                DurableFiles.atomicMove(file, target);
            }
        } catch (NoSuchFileException ignored) {
            // never written: nothing to rename
        } catch (IOException e) {
            throw new LogStorageException("cannot rename transaction index " + file + " to " + target, e);
        }
        file = target;
    }

    @Override
    public synchronized void close() {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            throw new LogStorageException("cannot close transaction index " + file, e);
        }
    }

    /** Closes and deletes the file, if there is one. */
    public synchronized void deleteIfExists() {
        close();
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new LogStorageException("cannot delete transaction index " + file, e);
        }
    }

    @Override
    public String toString() {
        return "TransactionIndex(" + file.getFileName() + ", " + sizeBytes / ENTRY_SIZE_BYTES + " entries)";
    }
}
