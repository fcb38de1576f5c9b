package io.kraft.raft.file;

import io.kraft.raft.LogEntry;
import io.kraft.raft.SnapshotId;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads the entries of a {@link FileRaftLog} directory front to back without changing anything, for offline tools
 * on a stopped node. Where {@link FileRaftLog#open} would repair the directory (cut a torn tail and the incomplete
 * batch it may end with, delete segments a snapshot replaced), this reader stops at the same place and says why in
 * {@link #stopReason()}, so it yields exactly the entries the node would keep at its next start (damage below the last
 * fsync, on which the node refuses to start, ends the reading there too, and the reason says so). It hands out a
 * batch's entries only once it has read the entry that ends the batch.
 */
public final class FileRaftLogReader implements AutoCloseable {
    private final Path directory;
    private final Optional<SnapshotId> startSnapshot;
    private final long startOffset;
    /** Offsets below this were fsynced: damage there is corruption, on which the node refuses to start. */
    private final long recoveryPoint;
    private final List<Path> segments;
    private int segmentIndex = -1;
    private InputStream current;
    /** The offset of the next entry to read from the files. */
    private long readOffset;
    private int lastEpoch;
    /** Entries of a batch whose last entry was not read yet. */
    private final Deque<LogEntry> incompleteBatch = new ArrayDeque<>();
    /** Entries of whole batches, read and not handed out yet. */
    private final Deque<LogEntry> wholeBatches = new ArrayDeque<>();
    /** The offset after the last entry handed out. */
    private long returnedEnd;
    private boolean finished;
    private String stopReason;

    private FileRaftLogReader(Path directory, Optional<SnapshotId> startSnapshot, long recoveryPoint,
                              List<Path> segments) {
        this.directory = directory;
        this.startSnapshot = startSnapshot;
        this.startOffset = startSnapshot.map(SnapshotId::endOffset).orElse(0L);
        this.recoveryPoint = recoveryPoint;
        this.segments = segments;
    }

    /**
     * Opens the log in {@code directory} for reading.
     *
     * @throws IllegalArgumentException if the directory holds no raft log segment
     * @throws UncheckedIOException     if the directory or its log-start file cannot be read
     */
    public static FileRaftLogReader open(Path directory) {
        try {
            if (!Files.isDirectory(directory)) {
                throw new IllegalArgumentException(directory + " is not a directory");
            }
            List<Path> files;
            try (Stream<Path> listing = Files.list(directory)) {
                files = new ArrayList<>(listing.filter(p -> p.getFileName().toString().endsWith(FileRaftLog.SUFFIX))
                        .sorted().toList());
            }
            if (files.isEmpty()) {
                throw new IllegalArgumentException(directory + " holds no metadata log (no *" + FileRaftLog.SUFFIX
                        + " segment)");
            }
            Path startFile = directory.resolve(FileRaftLog.LOG_START_FILE);
            Optional<SnapshotId> start = Files.exists(startFile)
                    ? Optional.of(FileRaftLog.readStartSnapshot(startFile)) : Optional.empty();
            long startOffset = start.map(SnapshotId::endOffset).orElse(0L);
            // Segments wholly below the start (the next one begins at or before it) are being deleted.
            while (files.size() > 1 && FileRaftLog.baseOffsetOf(files.get(1)) <= startOffset) {
                files.remove(0);
            }
            Path recoveryPointFile = directory.resolve(RecoveryPointFile.NAME);
            long recoveryPoint = Files.exists(recoveryPointFile)
                    ? RecoveryPointFile.parse(Files.readAllBytes(recoveryPointFile)).orElse(0) : 0;
            return new FileRaftLogReader(directory, start, recoveryPoint, files);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the metadata log in " + directory + ": " + e.getMessage(), e);
        }
    }

    /** The snapshot the log continues, if a snapshot replaced a prefix of it. */
    public Optional<SnapshotId> startSnapshot() {
        return startSnapshot;
    }

    /** The first offset the log holds; below it only the snapshot remains. */
    public long startOffset() {
        return startOffset;
    }

    /**
     * The next entry at or after {@link #startOffset()}, or empty at the end of the valid log.
     *
     * @throws UncheckedIOException if a segment cannot be read at all
     */
    public Optional<LogEntry> next() {
        try {
            while (wholeBatches.isEmpty() && !finished) {
                LogEntry entry = readEntry();
                if (entry != null && entry.offset() >= startOffset) {
                    incompleteBatch.add(entry);
                    if (entry.endsBatch()) {
                        wholeBatches.addAll(incompleteBatch);
                        incompleteBatch.clear();
                    }
                }
            }
            if (wholeBatches.isEmpty() && !incompleteBatch.isEmpty()) {
                dropIncompleteBatch();
            }
            LogEntry entry = wholeBatches.poll();
            if (entry != null) {
                returnedEnd = entry.offset() + 1;
            }
            return Optional.ofNullable(entry);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the metadata log in " + directory + ": " + e.getMessage(), e);
        }
    }

    /** Why reading stopped before the end of the segment files (a torn or corrupt tail), if it did. */
    public Optional<String> stopReason() {
        return Optional.ofNullable(stopReason);
    }

    /** The offset after the last entry returned so far (the log end offset once {@link #next()} is empty). */
    public long nextOffset() {
        return Math.max(returnedEnd, startOffset);
    }

    /** The valid entries end inside a batch: the node drops that part at its next start, and so does this reader. */
    private void dropIncompleteBatch() {
        String dropped = "an incomplete batch at offsets " + incompleteBatch.getFirst().offset() + ".."
                + incompleteBatch.getLast().offset() + " (a crash tore it; the node drops it at its next start)";
        stopReason = stopReason == null ? "the metadata log in " + directory + " ends early: " + dropped
                : stopReason + "; before that, " + dropped;
        incompleteBatch.clear();
    }

    /** One entry, or null for an entry below the start or a move to the next segment. */
    private LogEntry readEntry() throws IOException {
        if (current == null && !openNextSegment()) {
            return null;
        }
        byte[] header = current.readNBytes(FileRaftLog.FRAME_HEADER_BYTES);
        if (header.length == 0) {
            closeCurrent();
            return null;
        }
        if (header.length < FileRaftLog.FRAME_HEADER_BYTES) {
            return stop("a torn entry header at offset " + readOffset);
        }
        ByteBuffer frame = ByteBuffer.wrap(header);
        int length = frame.getInt();
        int crc = frame.getInt();
        if (length < FileRaftLog.ENTRY_HEADER_BYTES || length > FileRaftLog.MAX_ENTRY_BYTES) {
            return stop("an invalid entry length " + length + " at offset " + readOffset);
        }
        byte[] body = current.readNBytes(length);
        if (body.length < length) {
            return stop("a torn entry at offset " + readOffset);
        }
        ByteBuffer buffer = ByteBuffer.wrap(body);
        if (FileRaftLog.crc(buffer) != crc) {
            return stop("an entry failing its CRC check at offset " + readOffset);
        }
        long offset = buffer.getLong();
        int epoch = buffer.getInt();
        int code = buffer.get();
        if (offset != readOffset || epoch < lastEpoch || epoch < 1) {
            return stop("an out-of-sequence entry (offset " + offset + ", epoch " + epoch + ") where offset "
                    + readOffset + " was expected");
        }
        LogEntry.EntryType type = FileRaftLog.typeOf(code);
        if (type == null) {
            return stop("an entry of type " + code + ", unknown to this version (a newer one wrote it), at offset "
                    + offset + " (the node refuses to start on it)");
        }
        byte[] payload = new byte[buffer.remaining()];
        buffer.get(payload);
        if (startSnapshot.isPresent() && offset == startOffset - 1 && epoch != startSnapshot.get().epoch()) {
            return stop("entries that do not continue snapshot " + startSnapshot.get()
                    + " (the node discards them at its next start)");
        }
        readOffset++;
        lastEpoch = epoch;
        return new LogEntry(offset, epoch, type, payload);
    }

    private boolean openNextSegment() throws IOException {
        segmentIndex++;
        if (segmentIndex >= segments.size()) {
            finished = true;
            return false;
        }
        Path segment = segments.get(segmentIndex);
        long baseOffset = FileRaftLog.baseOffsetOf(segment);
        if (segmentIndex == 0) {
            readOffset = baseOffset;
        } else if (baseOffset != readOffset) {
            stop("segment " + segment.getFileName() + " starting at " + baseOffset + " where the log ends at "
                    + readOffset);
            return false;
        }
        current = new BufferedInputStream(Files.newInputStream(segment), 64 * 1024);
        return true;
    }

    private LogEntry stop(String reason) {
        stopReason = "the metadata log in " + directory + " ends early: " + reason;
        if (readOffset < recoveryPoint) {
            stopReason += ", below offset " + recoveryPoint + " which had been fsynced: corruption, on which the node "
                    + "refuses to start";
        }
        finished = true;
        closeCurrent();
        return null;
    }

    private void closeCurrent() {
        if (current != null) {
            try {
                current.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close a segment in " + directory, e);
            }
            current = null;
        }
    }

    @Override
    public void close() {
        closeCurrent();
        finished = true;
    }
}
