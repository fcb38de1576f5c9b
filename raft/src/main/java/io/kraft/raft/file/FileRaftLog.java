package io.kraft.raft.file;

import io.kraft.raft.EpochStartOffsets;
import io.kraft.raft.LogEntry;
import io.kraft.raft.OffsetAndEpoch;
import io.kraft.raft.RaftLog;
import io.kraft.raft.SnapshotId;
import io.kraft.storage.PreviousShutdown;
import io.kraft.storage.io.DurableFiles;
import io.kraft.storage.io.FaultInjection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link RaftLog} on disk: segment files named by their 20-digit base offset, each a sequence of length-prefixed,
 * CRC32C-checked entries. Opening recovers the log by cutting off a torn or corrupt tail, and then the incomplete batch
 * it may end with (see {@link LogEntry}): a crash in the middle of writing a batch leaves only part of it, which no
 * member acknowledged (acknowledgements cover flushed whole batches only).
 *
 * <p>Only a tail past the last fsync can be torn. The file {@value RecoveryPointFile#NAME} records how far the log was
 * fsynced (rewritten in place after each flush, without an fsync of its own: a crash can only bring back an older,
 * lower value, never one past the durable log), and lowered durably before a truncation removes entries below it. A
 * damaged entry below that point, or a log that ends before it, is corruption, not a crash: opening fails with a
 * {@link CorruptRaftLogException} naming the file and offset rather than cutting off entries the member may have
 * acknowledged. After a snapshot replaced
 * a prefix, the file {@value #LOG_START_FILE} names that snapshot (written atomically before any segment goes), and
 * segments wholly below it are deleted. Entry positions are
 * indexed in memory (a metadata log is small); payloads are read from the files. Closing leaves the marker
 * {@value #CLEAN_SHUTDOWN_FILE}, which opening removes: it only tells the start-up line whether the previous run closed
 * the log (recovery checks the whole log either way).
 *
 * <p>The storage module's partition log stores Kafka record batches with their own indexes; the Raft log is
 * kept separate and minimal because it needs per-entry epochs, cheap truncation and nothing else.
 */
public final class FileRaftLog implements RaftLog, AutoCloseable {
    static final String SUFFIX = ".raftlog";
    static final String LOG_START_FILE = "log-start-snapshot";
    /** Present while the log is closed cleanly; the name the partition logs' directories use for the same. */
    static final String CLEAN_SHUTDOWN_FILE = ".kraft_cleanshutdown";
    private static final Logger LOG = LoggerFactory.getLogger(FileRaftLog.class);
    /** length(4) + crc(4), then offset(8) + epoch(4) + type(1) + payload; see {@link #typeCode} for the type. */
    static final int FRAME_HEADER_BYTES = 8;
    static final int ENTRY_HEADER_BYTES = 13;
    static final int MAX_ENTRY_BYTES = 64 * 1024 * 1024;
    /** The most one read of a run of entries takes in (a larger entry is read alone). */
    private static final int READ_CHUNK_BYTES = 1024 * 1024;

    private final Path directory;
    private final long segmentBytes;
    private final TreeMap<Long, Segment> segments = new TreeMap<>();
    private final EpochStartOffsets epochs = new EpochStartOffsets();
    private final Set<Segment> unflushed = new HashSet<>();
    private boolean directoryChanged;
    private long endOffset;
    private long startOffset;
    private SnapshotId startSnapshot;
    /** While recovering: the offset after the last entry that ends its batch. */
    private long recoveredBatchEnd;
    private PreviousShutdown previousShutdown;
    /** What recovery cut: bytes of torn or corrupt entries (and of the segments after them), whole entries. */
    private long tornBytesCut;
    private long incompleteEntriesCut;
    private boolean closed;
    /** Entries below this offset were fsynced (as far as the recovery point file says). */
    private long recoveryPoint;
    private final RecoveryPointFile recoveryPointFile;

    /** One segment file and the byte position of each of its entries. */
    private static final class Segment {
        final long baseOffset;
        final Path path;
        final FileChannel channel;
        long[] positions = new long[64];
        int count;
        long sizeBytes;

        Segment(long baseOffset, Path path, FileChannel channel) {
            this.baseOffset = baseOffset;
            this.path = path;
            this.channel = channel;
        }

        void addPosition(long position) {
            if (count == positions.length) {
                positions = java.util.Arrays.copyOf(positions, count * 2);
            }
            positions[count++] = position;
        }
    }

    private FileRaftLog(Path directory, long segmentBytes) {
        this.directory = directory;
        this.segmentBytes = segmentBytes;
        this.recoveryPointFile = new RecoveryPointFile(directory);
    }

    /** Kafka's name for the metadata log's segment size. */
    public static final String SEGMENT_BYTES_CONFIG = "metadata.log.segment.bytes";
    /** Kafka's default: 1 GiB. */
    public static final long DEFAULT_SEGMENT_BYTES = 1024L * 1024 * 1024;

    /**
     * Opens the log in {@code directory} (see {@link MetadataLogDirectory} for where a node keeps it) with the segment
     * size {@code metadata.log.segment.bytes} names.
     *
     * @throws IllegalArgumentException with one line naming the setting when it is invalid
     */
    public static FileRaftLog open(Path directory, Map<String, String> properties) {
        String segmentBytes = properties.get(SEGMENT_BYTES_CONFIG);
        long bytes;
        try {
            bytes = segmentBytes == null ? DEFAULT_SEGMENT_BYTES : Long.parseLong(segmentBytes.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(SEGMENT_BYTES_CONFIG + " must be a number but was '" + segmentBytes + "'");
        }
        if (bytes < 1024) {
            throw new IllegalArgumentException(SEGMENT_BYTES_CONFIG + " must be at least 1024 but was " + bytes);
        }
        return open(directory, bytes);
    }

    /** Opens (creating if needed) the log in {@code directory}, recovering from a torn tail. */
    public static FileRaftLog open(Path directory, long segmentBytes) {
        if (segmentBytes < 1024) {
            throw new IllegalArgumentException("segmentBytes must be at least 1024 but was " + segmentBytes);
        }
        FileRaftLog log = new FileRaftLog(directory, segmentBytes);
        try {
            Files.createDirectories(directory);
            log.recover();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open raft log in " + directory + ": " + e.getMessage(), e);
        }
        return log;
    }

    private void recover() throws IOException {
        recoveryPoint = readRecoveryPoint();
        List<Path> files;
        try (Stream<Path> listing = Files.list(directory)) {
            files = new ArrayList<>(listing.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted().toList());
        }
        Path startFile = directory.resolve(LOG_START_FILE);
        Path marker = directory.resolve(CLEAN_SHUTDOWN_FILE);
        if (Files.deleteIfExists(marker)) {
            previousShutdown = PreviousShutdown.CLEAN;
            directoryChanged = true; // the flush below makes the removal durable: a crash from now on is unclean
        } else {
            previousShutdown = files.isEmpty() && !Files.exists(startFile) ? PreviousShutdown.NONE
                    : PreviousShutdown.UNCLEAN;
        }
        if (Files.exists(startFile)) {
            startSnapshot = readStartSnapshot(startFile);
            startOffset = startSnapshot.endOffset();
            // Segments wholly below the start (the next one begins at or before it) were being deleted.
            while (files.size() > 1 && baseOffsetOf(files.get(1)) <= startOffset) {
                Files.delete(files.remove(0));
                directoryChanged = true;
            }
            if (!files.isEmpty()) {
                endOffset = baseOffsetOf(files.get(0));
            }
        }
        boolean torn = false;
        recoveredBatchEnd = endOffset;
        for (Path path : files) {
            if (torn) {
                tornBytesCut += Files.size(path);
                Files.delete(path); // everything after a torn entry is unreachable
                directoryChanged = true;
                continue;
            }
            long baseOffset = baseOffsetOf(path);
            if (baseOffset != endOffset) {
                throw new IOException("segment " + path + " starts at " + baseOffset + " but the log ends at "
                        + endOffset);
            }
            Segment segment = openSegment(baseOffset, path);
            torn = !scan(segment);
        }
        if (Math.max(endOffset, startOffset) < recoveryPoint) {
            throw new CorruptRaftLogException("the metadata log in " + directory + " ends at offset "
                    + Math.max(endOffset, startOffset) + " but was fsynced up to offset " + recoveryPoint
                    + ": segment files were lost or cut");
        }
        long wholeBatchesEnd = Math.max(recoveredBatchEnd, startOffset);
        if (!segments.isEmpty() && endOffset > wholeBatchesEnd) {
            // The crash tore a batch: nobody acknowledged any of it, and committing part of it would break it.
            incompleteEntriesCut = endOffset - wholeBatchesEnd;
            truncateTo(wholeBatchesEnd);
        }
        if (segments.isEmpty()) {
            createSegment(startOffset);
            endOffset = startOffset;
        }
        if (startSnapshot != null) {
            boolean continues = endOffset >= startOffset && (startOffset == segments.firstKey()
                    || epochs.epochOf(startOffset - 1) == startSnapshot.epoch());
            if (!continues) {
                // A crash interrupted a reset to the snapshot: what is left does not continue it.
                resetTo(startOffset);
            }
            epochs.startAfter(startSnapshot, continues);
        }
        // Entries written before a crash may sit only in the page cache; the core treats what it finds at startup
        // as durable (and may acknowledge it), so make that true before anybody reads the log.
        unflushed.addAll(segments.values());
        flush();
        logOpening();
    }

    private void logOpening() {
        switch (previousShutdown) {
            case NONE -> LOG.info("Metadata log {} is new: it starts empty at offset {}", directory, endOffset);
            case CLEAN -> LOG.info("Opened metadata log {} after a clean shutdown: offsets [{}, {})", directory,
                    startOffset, endOffset);
            case UNCLEAN -> {
                List<String> cuts = new ArrayList<>();
                if (tornBytesCut > 0) {
                    cuts.add("cut " + tornBytesCut + " bytes of torn or corrupt entries");
                }
                if (incompleteEntriesCut > 0) {
                    cuts.add("cut " + incompleteEntriesCut + " entries of a batch the crash interrupted");
                }
                LOG.info("Recovered metadata log {} after an unclean shutdown: offsets [{}, {}), {}", directory,
                        startOffset, endOffset, cuts.isEmpty() ? "every entry intact" : String.join(", ", cuts));
            }
        }
    }

    /** How the previous run left the log, as opening it found. */
    public PreviousShutdown previousShutdown() {
        return previousShutdown;
    }

    /**
     * Indexes a segment's valid entries; cuts the file at the first invalid one and returns false if there was one.
     *
     * @throws IOException for an intact entry of a type this version does not know (a newer version wrote it):
     *                     cutting it off as if torn would lose data
     */
    private boolean scan(Segment segment) throws IOException {
        long fileSize = segment.channel.size();
        long position = 0;
        ReadWindow window = new ReadWindow(segment.channel, fileSize);
        String problem = null;
        while (position < fileSize) {
            ByteBuffer frame = window.bytes(position, FRAME_HEADER_BYTES);
            if (frame == null) {
                problem = "the file ends inside an entry header";
                break;
            }
            int length = frame.getInt();
            int crc = frame.getInt();
            if (length < ENTRY_HEADER_BYTES || length > MAX_ENTRY_BYTES) {
                problem = "an entry has the impossible length " + length;
                break;
            }
            if (position + FRAME_HEADER_BYTES + length > fileSize) {
                problem = "the file ends inside an entry";
                break;
            }
            ByteBuffer body = window.bytes(position + FRAME_HEADER_BYTES, length);
            if (crc(body) != crc) {
                problem = "an entry fails its CRC check";
                break;
            }
            long offset = body.getLong();
            int epoch = body.getInt();
            if (offset != endOffset || epoch < epochs.lastEpoch() || epoch < 1) {
                problem = "an entry is out of sequence (offset " + offset + ", epoch " + epoch + ")";
                break;
            }
            int code = body.get();
            LogEntry.EntryType type = typeOf(code);
            if (type == null) {
                throw new IOException("entry " + offset + " in " + segment.path + " has type " + code + ", unknown to "
                        + "this version: it was written by a newer one");
            }
            if (type.endsBatch()) {
                recoveredBatchEnd = offset + 1;
            }
            epochs.appended(epoch, offset);
            segment.addPosition(position);
            endOffset++;
            position += FRAME_HEADER_BYTES + length;
        }
        segment.sizeBytes = position;
        if (position < fileSize) {
            if (endOffset < recoveryPoint) {
                throw new CorruptRaftLogException(segment.path, endOffset, position, problem, recoveryPoint);
            }
            // past the last fsync: a torn tail, cut (the opening line says how much)
            tornBytesCut += fileSize - position;
            segment.channel.truncate(position);
            segment.channel.force(true);
            return false;
        }
        return true;
    }

    @Override
    public void append(List<LogEntry> entries) {
        try {
            for (LogEntry entry : entries) {
                if (entry.offset() != endOffset) {
                    throw new IllegalArgumentException("append at offset " + entry.offset()
                            + " but the log ends at " + endOffset);
                }
                if (entry.epoch() < epochs.lastEpoch()) {
                    throw new IllegalArgumentException("epoch " + entry.epoch() + " at offset " + entry.offset()
                            + " is below the log's last epoch " + epochs.lastEpoch());
                }
                ByteBuffer encoded = encode(entry);
                Segment active = segments.lastEntry().getValue();
                if (active.count > 0 && active.sizeBytes + encoded.remaining() > segmentBytes) {
                    active = createSegment(endOffset);
                }
                long position = active.sizeBytes;
                FaultInjection.writeFully(active.path, active.channel, encoded, position);
                active.addPosition(position);
                active.sizeBytes = position + FRAME_HEADER_BYTES + ENTRY_HEADER_BYTES + entry.payload().length;
                unflushed.add(active);
                epochs.appended(entry.epoch(), entry.offset());
                endOffset++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to raft log in " + directory, e);
        }
    }

    @Override
    public void truncateTo(long offset) {
        if (offset < startOffset) {
            throw new IllegalArgumentException("truncation offset " + offset + " is below the log start "
                    + startOffset);
        }
        if (offset >= endOffset) {
            return;
        }
        try {
            lowerRecoveryPoint(offset);
            while (segments.size() > 1 && segments.lastKey() >= offset) {
                Segment removed = segments.pollLastEntry().getValue();
                removed.channel.close();
                Files.delete(removed.path);
                unflushed.remove(removed);
                directoryChanged = true;
            }
            Segment last = segments.lastEntry().getValue();
            int keep = (int) Math.max(0, offset - last.baseOffset);
            long cut = keep < last.count ? last.positions[keep] : last.sizeBytes;
            last.channel.truncate(cut);
            last.channel.force(true); // truncation is made durable at once, like the in-memory model
            last.count = keep;
            last.sizeBytes = cut;
            endOffset = offset;
            epochs.truncatedTo(offset);
            if (last.baseOffset > offset) {
                // The whole log was cut below the only segment's base: restart it at the new end.
                segments.clear();
                last.channel.close();
                Files.delete(last.path);
                createSegment(offset);
            }
            if (directoryChanged) {
                DurableFiles.fsyncDirectory(directory);
                directoryChanged = false;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate raft log in " + directory + " to " + offset, e);
        }
    }

    @Override
    public void deletePrefix(SnapshotId snapshot) {
        long end = snapshot.endOffset();
        if (end < startOffset) {
            throw new IllegalArgumentException("snapshot " + snapshot + " ends below the log start " + startOffset);
        }
        boolean keepSuffix = end <= endOffset && (end == startOffset
                ? snapshot.equals(startSnapshot) : epochs.epochOf(end - 1) == snapshot.epoch());
        try {
            // The start is recorded first: a crash part way leaves segments recovery deletes or resets.
            DurableFiles.writeAtomically(directory.resolve(LOG_START_FILE),
                    (snapshot.endOffset() + " " + snapshot.epoch() + "\n").getBytes(StandardCharsets.UTF_8));
            if (keepSuffix) {
                while (segments.size() > 1 && segments.higherKey(segments.firstKey()) <= end) {
                    Segment removed = segments.pollFirstEntry().getValue();
                    removed.channel.close();
                    Files.delete(removed.path);
                    unflushed.remove(removed);
                }
                DurableFiles.fsyncDirectory(directory);
            } else {
                resetTo(end);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the raft log prefix below " + end + " in " + directory, e);
        }
        epochs.startAfter(snapshot, keepSuffix);
        startOffset = end;
        startSnapshot = snapshot;
    }

    /** Deletes every segment and starts the log empty at {@code offset}. */
    private void resetTo(long offset) throws IOException {
        lowerRecoveryPoint(offset);
        for (Segment segment : segments.values()) {
            segment.channel.close();
            Files.delete(segment.path);
        }
        segments.clear();
        unflushed.clear();
        createSegment(offset);
        endOffset = offset;
        DurableFiles.fsyncDirectory(directory);
        directoryChanged = false;
    }

    @Override
    public long startOffset() {
        return startOffset;
    }

    /** Bytes in all segment files, including any entries below the start in the first one. */
    public long sizeBytes() {
        return segments.values().stream().mapToLong(segment -> segment.sizeBytes).sum();
    }

    /** When the first segment was last written: the age of the oldest entries, for time-based retention. */
    public long oldestSegmentModifiedMs() {
        try {
            return Files.getLastModifiedTime(segments.firstEntry().getValue().path).toMillis();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the age of the raft log in " + directory, e);
        }
    }

    @Override
    public List<LogEntry> read(long offset, int maxEntries) {
        if (offset < startOffset || offset > endOffset) {
            throw new IllegalArgumentException("read at offset " + offset + " outside [" + startOffset + ", "
                    + endOffset + "]");
        }
        List<LogEntry> result = new ArrayList<>();
        try {
            long next = offset;
            while (next < endOffset && result.size() < maxEntries) {
                Segment segment = segments.floorEntry(next).getValue();
                int index = (int) (next - segment.baseOffset);
                int to = (int) Math.min(segment.count, index + (long) (maxEntries - result.size()));
                next += readEntries(segment, index, to, result);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read raft log in " + directory + " at " + offset, e);
        }
        return result;
    }

    /**
     * Reads entries {@code from} (inclusive) up to {@code to} of a segment into {@code out} with one read of up to
     * {@link #READ_CHUNK_BYTES} (at least one entry), rather than one read per entry: a member catching up reads
     * hundreds of thousands of small entries.
     *
     * @return how many entries were read
     */
    private int readEntries(Segment segment, int from, int to, List<LogEntry> out) throws IOException {
        long start = segment.positions[from];
        int last = from + 1;
        while (last < to && entryEnd(segment, last) - start <= READ_CHUNK_BYTES) {
            last++;
        }
        ByteBuffer chunk = ByteBuffer.allocate((int) (entryEnd(segment, last - 1) - start));
        readFully(segment.channel, chunk, start);
        for (int index = from; index < last; index++) {
            int position = (int) (segment.positions[index] - start);
            int length = (int) (entryEnd(segment, index) - segment.positions[index]);
            out.add(parseEntry(segment, index, chunk.slice(position, length)));
        }
        return last - from;
    }

    private static long entryEnd(Segment segment, int index) {
        return index + 1 < segment.count ? segment.positions[index + 1] : segment.sizeBytes;
    }

    private LogEntry parseEntry(Segment segment, int index, ByteBuffer buffer) throws IOException {
        buffer.getInt();
        int crc = buffer.getInt();
        if (crc(buffer.slice()) != crc) {
            throw new IOException("entry " + (segment.baseOffset + index) + " in " + segment.path
                    + " fails its CRC check");
        }
        long offset = buffer.getLong();
        int epoch = buffer.getInt();
        int code = buffer.get();
        LogEntry.EntryType type = typeOf(code);
        if (type == null) {
            throw new IOException("entry " + offset + " in " + segment.path + " has unknown type " + code);
        }
        byte[] payload = new byte[buffer.remaining()];
        buffer.get(payload);
        return new LogEntry(offset, epoch, type, payload);
    }

    @Override
    public long endOffset() {
        return endOffset;
    }

    @Override
    public int lastEpoch() {
        return epochs.lastEpoch();
    }

    @Override
    public int epochOf(long offset) {
        if (offset < startOffset || offset >= endOffset) {
            throw new IllegalArgumentException("no entry at offset " + offset + " (log ends at " + endOffset + ")");
        }
        return epochs.epochOf(offset);
    }

    @Override
    public OffsetAndEpoch endOffsetForEpoch(int epoch) {
        return epochs.endOffsetForEpoch(epoch, endOffset);
    }

    @Override
    public void flush() {
        try {
            for (Segment segment : unflushed) {
                FaultInjection.beforeFsync(segment.path);
                segment.channel.force(false);
            }
            unflushed.clear();
            if (directoryChanged) {
                DurableFiles.fsyncDirectory(directory);
                directoryChanged = false;
            }
            if (endOffset > recoveryPoint) {
                // Not fsynced: a crash may bring back an older value, which only makes recovery less strict.
                writeRecoveryPoint(endOffset, false);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot flush raft log in " + directory, e);
        }
    }

    /** Before entries at and above {@code offset} go: a recovery point above them would read as lost data. */
    private void lowerRecoveryPoint(long offset) throws IOException {
        if (offset < recoveryPoint) {
            writeRecoveryPoint(offset, true);
        }
    }

    private void writeRecoveryPoint(long offset, boolean durable) throws IOException {
        directoryChanged |= recoveryPointFile.write(offset, durable);
        if (durable && directoryChanged) {
            DurableFiles.fsyncDirectory(directory);
            directoryChanged = false;
        }
        recoveryPoint = offset;
    }

    /** The recovery point on disk, or 0 (every entry may be a torn tail) if there is none or it is unreadable. */
    private long readRecoveryPoint() throws IOException {
        boolean exists = Files.exists(recoveryPointFile.path());
        OptionalLong offset = recoveryPointFile.read();
        if (exists && offset.isEmpty()) {
            LOG.warn("Ignoring the unreadable metadata log recovery point {}: the whole log is checked as after a crash",
                    recoveryPointFile.path());
        }
        return offset.orElse(0);
    }

    /** Offsets below this were fsynced, as far as this log has recorded. */
    public long recoveryPoint() {
        return recoveryPoint;
    }

    /** Number of segment files: for tests and monitoring. */
    public int segmentCount() {
        return segments.size();
    }

    /** Flushes and closes the segments, then leaves the clean-shutdown marker. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        flush();
        try {
            recoveryPointFile.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + recoveryPointFile.path(), e);
        }
        for (Map.Entry<Long, Segment> entry : segments.entrySet()) {
            try {
                entry.getValue().channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close " + entry.getValue().path, e);
            }
        }
        closed = true;
        try {
            Files.deleteIfExists(directory.resolve(CLEAN_SHUTDOWN_FILE));
            Files.createFile(directory.resolve(CLEAN_SHUTDOWN_FILE));
            DurableFiles.fsyncDirectory(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark the clean shutdown of the raft log in " + directory, e);
        }
    }

    static long baseOffsetOf(Path segmentFile) {
        return Long.parseLong(segmentFile.getFileName().toString().replace(SUFFIX, ""));
    }

    static SnapshotId readStartSnapshot(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8).trim();
        String[] parts = text.split(" ");
        try {
            return new SnapshotId(Long.parseLong(parts[0]), Integer.parseInt(parts[1]));
        } catch (RuntimeException e) {
            throw new IOException("log start file " + file + " is corrupt: '" + text + "'", e);
        }
    }

    private Segment createSegment(long baseOffset) throws IOException {
        Segment segment = openSegment(baseOffset, directory.resolve(String.format("%020d", baseOffset) + SUFFIX));
        directoryChanged = true;
        return segment;
    }

    private Segment openSegment(long baseOffset, Path path) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        Segment segment = new Segment(baseOffset, path, channel);
        segments.put(baseOffset, segment);
        return segment;
    }

    private static ByteBuffer encode(LogEntry entry) {
        int length = ENTRY_HEADER_BYTES + entry.payload().length;
        if (length > MAX_ENTRY_BYTES) {
            throw new IllegalArgumentException("entry at offset " + entry.offset() + " has " + entry.payload().length
                    + " bytes, above the limit of " + (MAX_ENTRY_BYTES - ENTRY_HEADER_BYTES));
        }
        ByteBuffer buffer = ByteBuffer.allocate(FRAME_HEADER_BYTES + length);
        buffer.putInt(length).putInt(0);
        buffer.putLong(entry.offset()).putInt(entry.epoch()).put(typeCode(entry.type())).put(entry.payload());
        buffer.flip();
        buffer.putInt(4, crc(buffer.duplicate().position(FRAME_HEADER_BYTES)));
        return buffer;
    }

    /**
     * An entry type's byte on disk. Codes keep their meaning forever: logs written before batches were marked hold
     * only 0 and 1, and read as single-entry batches.
     */
    static byte typeCode(LogEntry.EntryType type) {
        return switch (type) {
            case DATA -> 0;
            case LEADER_CHANGE -> 1;
            case DATA_CONTINUED -> 2;
            case VOTERS -> 3;
        };
    }

    /** The entry type a byte on disk names, or null for one this version does not know. */
    static LogEntry.EntryType typeOf(int code) {
        return switch (code) {
            case 0 -> LogEntry.EntryType.DATA;
            case 1 -> LogEntry.EntryType.LEADER_CHANGE;
            case 2 -> LogEntry.EntryType.DATA_CONTINUED;
            case 3 -> LogEntry.EntryType.VOTERS;
            default -> null;
        };
    }

    static int crc(ByteBuffer body) {
        CRC32C crc = new CRC32C();
        crc.update(body.duplicate());
        return (int) crc.getValue();
    }

    /** A segment read front to back through one buffer of {@link #READ_CHUNK_BYTES}: recovery scans every entry. */
    private static final class ReadWindow {
        private final FileChannel channel;
        private final long fileSize;
        private ByteBuffer buffer = ByteBuffer.allocate(0);
        private long start;

        ReadWindow(FileChannel channel, long fileSize) {
            this.channel = channel;
            this.fileSize = fileSize;
        }

        /** The file's bytes from {@code position} on, {@code length} of them; null if the file ends before. */
        ByteBuffer bytes(long position, int length) throws IOException {
            if (position + length > fileSize) {
                return null;
            }
            if (position < start || position + length > start + buffer.limit()) {
                int size = (int) Math.min(Math.max(length, READ_CHUNK_BYTES), fileSize - position);
                buffer = buffer.capacity() >= size ? buffer.clear() : ByteBuffer.allocate(size);
                buffer.limit(size);
                if (readFully(channel, buffer, position) < size) {
                    throw new IOException("short read at " + position + " of a file of " + fileSize + " bytes");
                }
                buffer.flip();
                start = position;
            }
            return buffer.slice((int) (position - start), length);
        }
    }

    private static int readFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        int total = 0;
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, position + total);
            if (read < 0) {
                break;
            }
            total += read;
        }
        return total;
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long written = 0;
        while (buffer.hasRemaining()) {
            written += channel.write(buffer, position + written);
        }
    }
}
