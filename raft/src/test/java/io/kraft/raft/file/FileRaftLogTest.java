package io.kraft.raft.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.InMemoryRaftLog;
import io.kraft.raft.LogEntry;
import io.kraft.storage.PreviousShutdown;
import io.kraft.storage.io.FaultInjection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileRaftLogTest {
    private static final long SEGMENT_BYTES = 1024;

    @TempDir
    Path dir;

    private static List<LogEntry> entries(long from, int count, int epoch) {
        List<LogEntry> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(LogEntry.data(from + i, epoch, ("value-" + (from + i)).getBytes()));
        }
        return list;
    }

    @Test
    void takesTheSegmentSizeFromKafkasSetting() {
        try (FileRaftLog log = FileRaftLog.open(dir, java.util.Map.of(FileRaftLog.SEGMENT_BYTES_CONFIG, "1024"))) {
            log.append(entries(0, 60, 1));
            assertTrue(log.segmentCount() > 1, "metadata.log.segment.bytes sets the segment size");
        }
        IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> FileRaftLog.open(dir, java.util.Map.of(FileRaftLog.SEGMENT_BYTES_CONFIG, "big")));
        assertEquals("metadata.log.segment.bytes must be a number but was 'big'", bad.getMessage());
    }

    @Test
    void openingSaysWhetherTheLogIsNewWasClosedCleanlyOrIsRecovered() {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            assertEquals(PreviousShutdown.NONE, log.previousShutdown());
            log.append(entries(0, 10, 1));
        }
        assertTrue(Files.exists(dir.resolve(FileRaftLog.CLEAN_SHUTDOWN_FILE)));
        FileRaftLog crashed = FileRaftLog.open(dir, SEGMENT_BYTES);
        assertEquals(PreviousShutdown.CLEAN, crashed.previousShutdown());
        assertFalse(Files.exists(dir.resolve(FileRaftLog.CLEAN_SHUTDOWN_FILE)), "removed while the log is open");
        crashed.append(entries(10, 5, 1));
        crashed.flush();
        // never closed, as after kill -9
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            assertEquals(PreviousShutdown.UNCLEAN, log.previousShutdown());
            assertEquals(15, log.endOffset());
        }
    }

    @Test
    void readsRunsOfEntriesWhateverTheirSizeAgainstOneReadsChunk() {
        Random random = new Random(3);
        List<LogEntry> written = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            byte[] payload = new byte[i % 100 == 50 ? 1_500_000 : random.nextInt(20_000)];
            random.nextBytes(payload);
            written.add(LogEntry.data(i, 1 + i / 150, payload));
        }
        try (FileRaftLog log = FileRaftLog.open(dir, 64L * 1024 * 1024)) {
            log.append(written);
            for (int from : new int[] {0, 49, 50, 51, 149, 250}) {
                List<LogEntry> read = log.read(from, 1_000);
                assertEquals(written.size() - from, read.size(), "from " + from);
                for (int k = 0; k < read.size(); k++) {
                    LogEntry expected = written.get(from + k);
                    assertEquals(expected.offset(), read.get(k).offset());
                    assertEquals(expected.epoch(), read.get(k).epoch());
                    assertArrayEquals(expected.payload(), read.get(k).payload(), "entry " + expected.offset());
                }
            }
            assertEquals(List.of(10L, 11L, 12L), log.read(10, 3).stream().map(LogEntry::offset).toList());
        }
    }

    @Test
    void appendsReadsAndReopensAcrossSegments() {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(List.of(LogEntry.leaderChange(0, 1, 3)));
            log.append(entries(1, 99, 1));
            log.append(entries(100, 50, 2));
            assertTrue(log.segmentCount() > 1, "small segments roll");
        }
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            assertEquals(150, log.endOffset());
            assertEquals(2, log.lastEpoch());
            assertEquals(LogEntry.EntryType.LEADER_CHANGE, log.read(0, 1).get(0).type());
            assertEquals(entries(90, 20, 1).subList(0, 10), log.read(90, 10));
            assertEquals(1, log.epochOf(99));
            assertEquals(2, log.epochOf(100));
            assertEquals(100, log.endOffsetForEpoch(1).offset());
        }
    }

    @Test
    void truncationAcrossSegmentsSurvivesReopen() {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(entries(0, 120, 1));
            log.truncateTo(17);
            log.append(entries(17, 3, 4));
        }
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            assertEquals(20, log.endOffset());
            assertEquals(4, log.epochOf(17));
            assertEquals(1, log.epochOf(16));
        }
    }

    @Test
    void tornTailIsCutOffOnOpen() throws IOException {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES * 64)) {
            log.append(entries(0, 10, 1));
        }
        Path segment = onlySegment();
        long size = Files.size(segment);
        crashedBeforeTheLastFsync();
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            channel.truncate(size - 3); // the last entry lost its final bytes in a crash
        }
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES * 64)) {
            assertEquals(9, log.endOffset());
            log.append(entries(9, 1, 2));
            assertEquals(2, log.lastEpoch());
        }
    }

    private static List<LogEntry> batch(long from, int count, int epoch) {
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(("batched-" + (from + i)).getBytes());
        }
        return LogEntry.batch(from, epoch, records);
    }

    @Test
    void batchMarksSurviveReopening() {
        List<LogEntry> written = new ArrayList<>(List.of(LogEntry.leaderChange(0, 1, 3)));
        written.addAll(batch(1, 4, 1));
        written.addAll(entries(5, 1, 1));
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(written);
        }
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            assertEquals(written, log.read(0, 10));
        }
    }

    @Test
    void aBatchTornByACrashIsCutOffWholeOnOpen() throws IOException {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES * 64)) {
            log.append(List.of(LogEntry.leaderChange(0, 1, 3)));
            log.append(batch(1, 3, 1));
            log.append(batch(4, 5, 1));
        }
        Path segment = onlySegment();
        crashedBeforeTheLastFsync();
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            channel.truncate(Files.size(segment) - 3); // the crash tore the batch's last entry
        }
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES * 64)) {
            assertEquals(4, log.endOffset(), "the four intact entries of the torn batch go with it");
            assertEquals(batch(1, 3, 1), log.read(1, 10));
            log.append(batch(4, 2, 2));
        }
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES * 64)) {
            assertEquals(6, log.endOffset());
            assertEquals(2, log.lastEpoch());
        }
    }

    @Test
    void aBatchWhoseLastSegmentWasLostIsCutOffInTheSegmentBefore() throws IOException {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(entries(0, 20, 1));
            log.append(batch(20, 60, 1)); // rolls into new segments part way
            assertTrue(log.segmentCount() > 1);
        }
        List<Path> segments;
        try (Stream<Path> files = Files.list(dir)) {
            segments = files.filter(p -> p.toString().endsWith(FileRaftLog.SUFFIX)).sorted().toList();
        }
        crashedBeforeTheLastFsync();
        Files.delete(segments.get(segments.size() - 1)); // the crash lost the newest segment file
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            assertEquals(20, log.endOffset(), "every entry of the batch is gone, in every segment");
            assertEquals(entries(0, 20, 1), log.read(0, 100));
            log.append(batch(20, 2, 2));
            assertEquals(22, log.endOffset());
        }
    }

    @Test
    void aLogWrittenBeforeBatchesWereMarkedReadsAsBatchesOfOneEntry() throws IOException {
        // The format as it was: type 0 for data and 1 for leader changes, nothing else.
        ByteBuffer segment = ByteBuffer.allocate(1024);
        rawEntry(segment, 0, 1, 1, new byte[] {0, 0, 0, 3});
        rawEntry(segment, 1, 1, 0, "first".getBytes());
        rawEntry(segment, 2, 1, 0, "second".getBytes());
        segment.flip();
        Files.write(dir.resolve(String.format("%020d", 0) + FileRaftLog.SUFFIX),
                java.util.Arrays.copyOf(segment.array(), segment.limit()));
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            assertEquals(List.of(LogEntry.leaderChange(0, 1, 3), LogEntry.data(1, 1, "first".getBytes()),
                    LogEntry.data(2, 1, "second".getBytes())), log.read(0, 10));
            assertTrue(log.read(0, 10).stream().allMatch(LogEntry::endsBatch));
        }
    }

    @Test
    void anEntryOfATypeThisVersionDoesNotKnowStopsTheLogFromOpening() throws IOException {
        ByteBuffer segment = ByteBuffer.allocate(1024);
        rawEntry(segment, 0, 1, 0, "known".getBytes());
        rawEntry(segment, 1, 1, 9, "from a newer version".getBytes());
        segment.flip();
        Path file = dir.resolve(String.format("%020d", 0) + FileRaftLog.SUFFIX);
        Files.write(file, java.util.Arrays.copyOf(segment.array(), segment.limit()));
        long size = Files.size(file);
        java.io.UncheckedIOException refused = assertThrows(java.io.UncheckedIOException.class,
                () -> FileRaftLog.open(dir, SEGMENT_BYTES));
        assertTrue(refused.getCause().getMessage().contains("has type 9, unknown to this version"),
                refused.getCause().getMessage());
        assertEquals(size, Files.size(file), "an intact entry is not cut off as if torn");
    }

    /** Writes one entry as the segment format lays it out, independently of FileRaftLog's encoder. */
    private static void rawEntry(ByteBuffer segment, long offset, int epoch, int typeCode, byte[] payload) {
        ByteBuffer body = ByteBuffer.allocate(13 + payload.length);
        body.putLong(offset).putInt(epoch).put((byte) typeCode).put(payload).flip();
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(body.duplicate());
        segment.putInt(body.remaining()).putInt((int) crc.getValue()).put(body);
    }

    @Test
    void aCorruptEntryPastTheLastFsyncEndsTheLogThere() throws IOException {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES * 64)) {
            log.append(entries(0, 10, 1));
        }
        crashedBeforeTheLastFsync();
        flipByteOfEntry(4);
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES * 64)) {
            assertEquals(4, log.endOffset());
        }
    }

    @Test
    void aCorruptEntryBelowTheLastFsyncRefusesToOpenNamingFileAndOffset() throws IOException {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES * 64)) {
            log.append(entries(0, 10, 1));
            log.flush();
            log.append(entries(10, 5, 1)); // written, not flushed: a crash could tear these
        }
        flipByteOfEntry(4);
        long size = Files.size(onlySegment());
        CorruptRaftLogException refused = assertThrows(CorruptRaftLogException.class,
                () -> FileRaftLog.open(dir, SEGMENT_BYTES * 64));
        assertEquals("metadata log segment " + onlySegment() + " is corrupt at offset 4 (byte 112): an entry fails its "
                + "CRC check, below offset 15 which had been fsynced, so this is no torn write; refusing to start: "
                + "recover metadata.log.dir from a snapshot and the quorum's other members", refused.getMessage());
        assertEquals(size, Files.size(onlySegment()), "nothing is cut off");
    }

    @Test
    void aLogThatEndsBeforeItsLastFsyncRefusesToOpen() throws IOException {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(entries(0, 60, 1));
            assertTrue(log.segmentCount() > 1);
        }
        List<Path> segments;
        try (Stream<Path> files = Files.list(dir)) {
            segments = files.filter(p -> p.toString().endsWith(FileRaftLog.SUFFIX)).sorted().toList();
        }
        Files.delete(segments.get(segments.size() - 1));
        CorruptRaftLogException refused = assertThrows(CorruptRaftLogException.class,
                () -> FileRaftLog.open(dir, SEGMENT_BYTES));
        assertTrue(refused.getMessage().startsWith("the metadata log in " + dir + " ends at offset "), refused.getMessage());
        assertTrue(refused.getMessage().contains("but was fsynced up to offset 60: segment files were lost or cut"),
                refused.getMessage());
    }

    @Test
    void truncatingBelowTheLastFsyncLowersItFirst() throws IOException {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(entries(0, 60, 1));
            log.flush();
            assertEquals(60, log.recoveryPoint());
            log.truncateTo(30); // a follower's uncommitted suffix that its new leader does not have
            assertEquals(30, log.recoveryPoint());
        }
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            assertEquals(30, log.endOffset());
        }
    }

    @Test
    void aFailedFsyncIsAnErrorAndNothingPastTheLastGoodOneCountsAsDurable() throws IOException {
        FaultInjection.setEnabled(true);
        Path trigger = dir.resolve(FaultInjection.TRIGGER_FILE);
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(entries(0, 10, 1));
            log.flush();
            Files.writeString(trigger, "FSYNC");
            log.append(entries(10, 5, 1)); // the write itself returns, as it would into the page cache
            // The driver hands this to its fatal error handler: after a failed fsync the kernel may have dropped the
            // pages, so neither a retry nor carrying on is safe.
            UncheckedIOException failed = assertThrows(UncheckedIOException.class, log::flush);
            assertEquals("cannot flush raft log in " + dir, failed.getMessage());
            assertTrue(failed.getCause().getMessage().startsWith("Input/output error"), failed.getCause().getMessage());
            assertEquals(10, log.recoveryPoint(), "the recovery point stays at the last fsync that worked");
            Files.delete(trigger);
        } finally {
            FaultInjection.setEnabled(false);
        }
    }

    @Test
    void anUnreadableRecoveryPointChecksTheLogAsAfterACrash() throws IOException {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES * 64)) {
            log.append(entries(0, 10, 1));
        }
        Files.writeString(dir.resolve(RecoveryPointFile.NAME), "garbage");
        flipByteOfEntry(4);
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES * 64)) {
            assertEquals(4, log.endOffset());
        }
        assertTrue(RecoveryPointFile.parse("00000000000000000010 00000000\n".getBytes()).isEmpty(),
                "a wrong checksum");
    }

    /** The last flush's recovery point never reached the disk: what follows may be a torn tail. */
    private void crashedBeforeTheLastFsync() throws IOException {
        Files.delete(dir.resolve(RecoveryPointFile.NAME));
    }

    private void flipByteOfEntry(int index) throws IOException {
        try (FileChannel channel = FileChannel.open(onlySegment(), StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            long entryStart = (long) index * (8 + 13 + "value-0".length());
            channel.write(ByteBuffer.wrap(new byte[] {(byte) 0xFF}), entryStart + 20);
        }
    }

    @Test
    void rejectsGapsAndEpochRegressions() {
        try (FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES)) {
            log.append(entries(0, 2, 3));
            assertThrows(IllegalArgumentException.class, () -> log.append(entries(5, 1, 3)));
            assertThrows(IllegalArgumentException.class, () -> log.append(entries(2, 1, 2)));
            assertThrows(IllegalArgumentException.class, () -> log.read(3, 1));
        }
    }

    /** Random appends, truncations and reopenings, compared step by step with the in-memory model. */
    @Test
    void behavesLikeTheInMemoryLog() {
        long seed = Long.getLong("kraft.seed", 20261130L);
        Random random = new Random(seed);
        InMemoryRaftLog model = new InMemoryRaftLog();
        FileRaftLog log = FileRaftLog.open(dir, SEGMENT_BYTES);
        try {
            int epoch = 1;
            for (int step = 0; step < 400; step++) {
                int op = random.nextInt(10);
                if (op < 6) {
                    epoch += random.nextInt(4) == 0 ? 1 : 0;
                    byte[] payload = new byte[random.nextInt(200)];
                    random.nextBytes(payload);
                    List<LogEntry> batch = List.of(LogEntry.data(model.endOffset(), epoch, payload));
                    model.append(batch);
                    log.append(batch);
                } else if (op < 8 && model.endOffset() > 0) {
                    long to = random.nextLong(model.endOffset() + 1);
                    model.truncateTo(to);
                    log.truncateTo(to);
                    epoch = Math.max(epoch, model.lastEpoch());
                } else if (op == 8) {
                    log.close();
                    log = FileRaftLog.open(dir, SEGMENT_BYTES);
                } else {
                    log.flush();
                }
                assertEquals(model.endOffset(), log.endOffset(), "end offset; seed " + seed + " step " + step);
                assertEquals(model.lastEpoch(), log.lastEpoch(), "last epoch; seed " + seed + " step " + step);
                int probeEpoch = random.nextInt(epoch + 2);
                assertEquals(model.endOffsetForEpoch(probeEpoch), log.endOffsetForEpoch(probeEpoch),
                        "end offset for epoch " + probeEpoch + "; seed " + seed + " step " + step);
            }
            assertEquals(model.read(0, Integer.MAX_VALUE), log.read(0, Integer.MAX_VALUE), "seed " + seed);
        } finally {
            log.close();
        }
    }

    private Path onlySegment() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> segments = files.filter(p -> p.toString().endsWith(FileRaftLog.SUFFIX)).toList();
            assertEquals(1, segments.size());
            return segments.get(0);
        }
    }
}
