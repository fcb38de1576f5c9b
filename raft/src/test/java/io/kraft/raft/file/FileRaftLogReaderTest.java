package io.kraft.raft.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.LogEntry;
import io.kraft.raft.SnapshotId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileRaftLogReaderTest {
    private static final long SEGMENT_BYTES = 1024;
    /** Random logs checked against FileRaftLog; -Dkraft.seed=N replays one. */
    private static final int SEEDS = Integer.getInteger("kraft.seeds", 60);

    @TempDir
    Path dir;

    private static List<LogEntry> entries(long from, int count, int epoch) {
        List<LogEntry> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(LogEntry.data(from + i, epoch, ("value-" + (from + i)).getBytes()));
        }
        return list;
    }

    private static List<LogEntry> readAll(FileRaftLogReader reader) {
        List<LogEntry> all = new ArrayList<>();
        for (Optional<LogEntry> next = reader.next(); next.isPresent(); next = reader.next()) {
            all.add(next.get());
        }
        return all;
    }

    @Test
    void readsEveryEntryAcrossSegmentsInOrder() {
        List<LogEntry> written = new ArrayList<>();
        written.add(LogEntry.leaderChange(0, 1, 3));
        written.addAll(entries(1, 99, 1));
        written.addAll(entries(100, 30, 2));
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(written);
            assertTrue(log.segmentCount() > 2);
        }
        try (FileRaftLogReader reader = FileRaftLogReader.open(dir)) {
            assertEquals(0, reader.startOffset());
            assertEquals(Optional.empty(), reader.startSnapshot());
            assertEquals(written, readAll(reader));
            assertEquals(130, reader.nextOffset());
            assertEquals(Optional.empty(), reader.stopReason());
        }
    }

    @Test
    void startsAfterTheSnapshotThatReplacedThePrefix() {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(entries(0, 100, 1));
            log.deletePrefix(new SnapshotId(60, 1));
        }
        try (FileRaftLogReader reader = FileRaftLogReader.open(dir)) {
            assertEquals(Optional.of(new SnapshotId(60, 1)), reader.startSnapshot());
            assertEquals(60, reader.startOffset());
            assertEquals(entries(60, 40, 1), readAll(reader));
        }
    }

    @Test
    void stopsAtATornTailWithoutRepairingIt() throws IOException {
        try (FileRaftLog log = FileRaftLog.open(dir, 1024 * 1024)) {
            log.append(entries(0, 10, 1));
        }
        Path segment = dir.resolve(String.format("%020d", 0) + FileRaftLog.SUFFIX);
        byte[] bytes = Files.readAllBytes(segment);
        Files.delete(dir.resolve(RecoveryPointFile.NAME)); // the crash came before the last fsync
        Files.write(segment, java.util.Arrays.copyOf(bytes, bytes.length - 3));
        long size = Files.size(segment);
        try (FileRaftLogReader reader = FileRaftLogReader.open(dir)) {
            assertEquals(entries(0, 9, 1), readAll(reader));
            assertTrue(reader.stopReason().orElseThrow().contains("a torn entry at offset 9"),
                    reader.stopReason().toString());
        }
        assertEquals(size, Files.size(segment), "the reader changes nothing");
    }

    @Test
    void stopsBeforeABatchACrashTore() throws IOException {
        List<LogEntry> whole = new ArrayList<>(entries(0, 2, 1));
        whole.addAll(LogEntry.batch(2, 1, List.of("a".getBytes(), "b".getBytes())));
        try (FileRaftLog log = FileRaftLog.open(dir, 1024 * 1024)) {
            log.append(whole);
            log.append(LogEntry.batch(4, 1, List.of("c".getBytes(), "d".getBytes(), "e".getBytes())));
        }
        Path segment = dir.resolve(String.format("%020d", 0) + FileRaftLog.SUFFIX);
        byte[] bytes = Files.readAllBytes(segment);
        Files.delete(dir.resolve(RecoveryPointFile.NAME)); // the crash came before the last fsync
        Files.write(segment, java.util.Arrays.copyOf(bytes, bytes.length - 2));
        try (FileRaftLogReader reader = FileRaftLogReader.open(dir)) {
            assertEquals(whole, readAll(reader));
            assertEquals(4, reader.nextOffset(), "the log ends where the node's would after its next start");
            String reason = reader.stopReason().orElseThrow();
            assertTrue(reason.contains("a torn entry at offset 6") && reason.contains("incomplete batch at offsets 4..5"),
                    reason);
        }
    }

    @Test
    void saysWhenItStopsAtCorruptionBelowTheLastFsync() throws IOException {
        try (FileRaftLog log = FileRaftLog.open(dir, 1024 * 1024)) {
            log.append(entries(0, 10, 1));
        }
        Path segment = dir.resolve(String.format("%020d", 0) + FileRaftLog.SUFFIX);
        byte[] bytes = Files.readAllBytes(segment);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(segment, bytes);
        try (FileRaftLogReader reader = FileRaftLogReader.open(dir)) {
            readAll(reader);
            String reason = reader.stopReason().orElseThrow();
            assertTrue(reason.endsWith("below offset 10 which had been fsynced: corruption, on which the node refuses "
                    + "to start"), reason);
        }
    }

    @Test
    void aDirectoryWithoutSegmentsIsRefused() throws IOException {
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> FileRaftLogReader.open(dir));
        assertTrue(empty.getMessage().endsWith("holds no metadata log (no *.raftlog segment)"), empty.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> FileRaftLogReader.open(dir.resolve("absent")));
        assertTrue(missing.getMessage().endsWith("is not a directory"), missing.getMessage());
    }

    /**
     * Whatever appends (single entries and batches), truncations, prefix deletions and tail damage did, the reader
     * sees what a reopen keeps.
     */
    @Test
    void yieldsExactlyWhatReopeningTheLogKeeps() throws IOException {
        Integer only = Integer.getInteger("kraft.seed");
        int first = only != null ? only : 0;
        int count = only != null ? 1 : SEEDS;
        for (int seed = first; seed < first + count; seed++) {
            try {
                checkSeed(seed);
            } catch (AssertionError | RuntimeException | IOException e) {
                throw new AssertionError("seed " + seed + " failed (replay with -Dkraft.seed=" + seed + ")", e);
            }
        }
    }

    private void checkSeed(int seed) throws IOException {
        Random random = new Random(seed);
        Path original = Files.createDirectories(dir.resolve("seed-" + seed));
        try (FileRaftLog log = FileRaftLog.open(original, SEGMENT_BYTES)) {
            int epoch = 1;
            for (int step = 0; step < 12; step++) {
                int choice = random.nextInt(10);
                if (choice < 3) {
                    log.append(entries(log.endOffset(), 1 + random.nextInt(40), epoch));
                } else if (choice < 6) {
                    // Batches of several entries, so that tail damage may leave part of one.
                    for (int batches = 1 + random.nextInt(6); batches > 0; batches--) {
                        List<byte[]> records = new ArrayList<>();
                        for (int i = 1 + random.nextInt(8); i > 0; i--) {
                            records.add(("batched-" + (log.endOffset() + records.size())).getBytes());
                        }
                        log.append(LogEntry.batch(log.endOffset(), epoch, records));
                    }
                } else if (choice < 8 && log.endOffset() > log.startOffset()) {
                    log.truncateTo(log.startOffset() + random.nextInt((int) (log.endOffset() - log.startOffset())));
                    epoch++;
                } else if (log.endOffset() > Math.max(1, log.startOffset())) {
                    long end = log.startOffset() + 1 + random.nextInt((int) (log.endOffset() - log.startOffset()));
                    log.deletePrefix(new SnapshotId(end, log.epochOf(end - 1)));
                }
            }
        }
        damageTail(original, random);
        Map<Path, byte[]> before = contents(original);
        List<LogEntry> read;
        long startOffset;
        try (FileRaftLogReader reader = FileRaftLogReader.open(original)) {
            read = readAll(reader);
            startOffset = reader.startOffset();
        }
        Map<Path, byte[]> after = contents(original);
        assertEquals(before.keySet(), after.keySet(), "the reader changes nothing");
        before.forEach((path, bytes) -> assertTrue(java.util.Arrays.equals(bytes, after.get(path)), path.toString()));

        Path copy = Files.createDirectories(dir.resolve("copy-" + seed));
        for (Path file : before.keySet()) {
            Files.copy(original.resolve(file), copy.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        try (FileRaftLog reopened = FileRaftLog.open(copy, SEGMENT_BYTES)) {
            assertEquals(reopened.startOffset(), startOffset);
            List<LogEntry> kept = reopened.read(reopened.startOffset(), Integer.MAX_VALUE);
            assertEquals(kept, read);
        }
    }

    /** Sometimes cuts or garbles bytes near the end of the last segment, as a crash or a bad disk would. */
    private static void damageTail(Path directory, Random random) throws IOException {
        List<Path> segments;
        try (Stream<Path> listing = Files.list(directory)) {
            segments = listing.filter(p -> p.toString().endsWith(FileRaftLog.SUFFIX)).sorted().toList();
        }
        Path last = segments.get(segments.size() - 1);
        byte[] bytes = Files.readAllBytes(last);
        if (bytes.length == 0 || random.nextInt(3) == 0) {
            return;
        }
        // A crash before the last fsync, whose recovery point never reached the disk: the tail may be torn.
        Files.deleteIfExists(directory.resolve(RecoveryPointFile.NAME));
        int position = bytes.length - 1 - random.nextInt(Math.min(bytes.length, 60));
        if (random.nextBoolean()) {
            Files.write(last, java.util.Arrays.copyOf(bytes, position));
        } else {
            bytes[position] ^= (byte) (1 + random.nextInt(255));
            Files.write(last, bytes);
        }
    }

    private static Map<Path, byte[]> contents(Path directory) throws IOException {
        Map<Path, byte[]> files = new TreeMap<>();
        try (Stream<Path> listing = Files.list(directory)) {
            for (Path file : listing.toList()) {
                files.put(file.getFileName(), Files.readAllBytes(file));
            }
        }
        return files;
    }
}
