package io.kraft.storage.cleaner;

import static io.kraft.storage.cleaner.CleanerTestLog.append;
import static io.kraft.storage.cleaner.CleanerTestLog.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.cleaner.CleanerTestLog.Row;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.LogFileNames;
import io.kraft.storage.log.LogSegment;
import io.kraft.storage.log.MemoryBackedTempDirFactory;
import io.kraft.storage.record.CompressionType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A crash at each step of the cleaner's swap-in leaves files that reopen as a valid log: before the
 * swap point the old segments win, after it the cleaned ones, and no key's latest value is ever lost.
 * The on-disk state of each step is built from a log before and after a real clean.
 */
class LogCleanerCrashTest {
    private static final long NOW = 1_700_000_000_000L;
    private static final LogConfig CONFIG = LogConfig.defaults().toBuilder().segmentBytes(400).compact(true)
            .delete(false).build();

    /** The step after which the process died, in the order {@code Log.replaceSegments} takes them. */
    enum CrashPoint {
        WHILE_WRITING_CLEANED_SEGMENTS,
        CLEANED_SEGMENTS_RENAMED_TO_SWAP,
        HALF_OF_THE_OLD_SEGMENTS_RENAMED_DELETED,
        ALL_OLD_SEGMENTS_RENAMED_DELETED,
        SOME_SWAP_SUFFIXES_REMOVED,
        SWAP_DONE_DELETED_FILES_NOT_YET_REMOVED
    }

    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path root;

    private Path before;
    private Path after;
    private List<Long> oldBases;
    private List<Long> newBases;
    private List<Row> rowsBefore;
    private List<Row> rowsAfter;
    private long activeBase;

    @BeforeEach
    void cleanOnce() throws IOException {
        before = Files.createDirectory(root.resolve("before"));
        try (Log log = Log.open(before, CONFIG)) {
            for (int i = 0; i < 60; i++) {
                CompressionType codec = i % 3 == 0 ? CompressionType.LZ4 : CompressionType.NONE;
                append(log, codec, NOW, "k" + (i % 7), "v" + i, "u" + (i % 11), i % 5 == 0 ? null : "w" + i);
            }
            rowsBefore = rows(log);
            activeBase = log.activeSegment().baseOffset();
            oldBases = log.segments().stream().map(LogSegment::baseOffset).filter(b -> b != activeBase).toList();
        }
        after = root.resolve("after");
        copyDir(before, after);
        try (Log log = Log.open(after, CONFIG)) {
            new LogCleaner(1 << 20).clean(log, 0, log.logEndOffset(), NOW);
            rowsAfter = rows(log);
            newBases = log.segments().stream().map(LogSegment::baseOffset).filter(b -> b != activeBase).toList();
        }
        assertTrue(oldBases.size() > 2, "the scenario needs several cleanable segments");
        assertTrue(newBases.size() >= 2, "the scenario needs several cleaned segments");
        assertTrue(rowsAfter.size() < rowsBefore.size(), "the clean must remove something");
    }

    @ParameterizedTest
    @EnumSource(CrashPoint.class)
    void reopensToAValidLogWithEveryLatestValue(CrashPoint crashPoint) throws IOException {
        Path crashed = root.resolve("crashed");
        copyDir(before, crashed);
        switch (crashPoint) {
            case WHILE_WRITING_CLEANED_SEGMENTS -> {
                copySegments(after, crashed, newBases, LogFileNames.CLEANED_SUFFIX);
                // the last cleaned file is torn mid-write
                Path torn = LogFileNames.logFile(crashed, newBases.get(newBases.size() - 1), LogFileNames.CLEANED_SUFFIX);
                truncate(torn, Files.size(torn) / 2);
            }
            case CLEANED_SEGMENTS_RENAMED_TO_SWAP -> copySegments(after, crashed, newBases, LogFileNames.SWAP_SUFFIX);
            case HALF_OF_THE_OLD_SEGMENTS_RENAMED_DELETED -> {
                copySegments(after, crashed, newBases, LogFileNames.SWAP_SUFFIX);
                renameSegments(crashed, oldBases.subList(0, oldBases.size() / 2), "", LogFileNames.DELETED_SUFFIX);
            }
            case ALL_OLD_SEGMENTS_RENAMED_DELETED -> {
                copySegments(after, crashed, newBases, LogFileNames.SWAP_SUFFIX);
                renameSegments(crashed, oldBases, "", LogFileNames.DELETED_SUFFIX);
            }
            case SOME_SWAP_SUFFIXES_REMOVED -> {
                renameSegments(crashed, oldBases, "", LogFileNames.DELETED_SUFFIX);
                copySegments(after, crashed, newBases.subList(0, 1), "");
                copySegments(after, crashed, newBases.subList(1, newBases.size()), LogFileNames.SWAP_SUFFIX);
            }
            case SWAP_DONE_DELETED_FILES_NOT_YET_REMOVED -> {
                renameSegments(crashed, oldBases, "", LogFileNames.DELETED_SUFFIX);
                copySegments(after, crashed, newBases, "");
            }
        }

        try (Log log = Log.open(crashed, CONFIG)) {
            List<Row> recovered = rows(log);
            if (crashPoint == CrashPoint.WHILE_WRITING_CLEANED_SEGMENTS) {
                assertEquals(rowsBefore, recovered, "before the swap point the old segments stand");
            } else {
                assertEquals(rowsAfter, recovered, "after the swap point the cleaned segments stand");
            }
            assertValidAgainst(rowsBefore, recovered);
            try (Stream<Path> files = Files.list(crashed)) {
                List<String> leftovers = files.map(p -> p.getFileName().toString())
                        .filter(n -> n.endsWith(".cleaned") || n.endsWith(".swap") || n.endsWith(".deleted")).toList();
                assertEquals(List.of(), leftovers);
            }
        }
    }

    /** Every surviving row was written at that offset, offsets ascend, and each key's latest value is there. */
    static void assertValidAgainst(List<Row> written, List<Row> recovered) {
        Set<Row> writtenRows = new HashSet<>(written);
        long previous = -1;
        for (Row row : recovered) {
            assertTrue(writtenRows.contains(row), "row " + row + " was never written");
            assertTrue(row.offset() > previous, "offsets ascend");
            previous = row.offset();
        }
        Map<String, Row> latest = written.stream()
                .collect(Collectors.toMap(Row::key, Function.identity(), (a, b) -> b, TreeMap::new));
        Set<Row> recoveredRows = new HashSet<>(recovered);
        for (Row row : latest.values()) {
            if (row.value() != null) {
                assertTrue(recoveredRows.contains(row), "latest value " + row + " was lost");
            }
        }
    }

    private static void copyDir(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static void copySegments(Path from, Path to, List<Long> bases, String suffix) throws IOException {
        for (long base : bases) {
            Files.copy(LogFileNames.logFile(from, base, ""), LogFileNames.logFile(to, base, suffix),
                    StandardCopyOption.REPLACE_EXISTING);
            Files.copy(LogFileNames.offsetIndexFile(from, base, ""), LogFileNames.offsetIndexFile(to, base, suffix),
                    StandardCopyOption.REPLACE_EXISTING);
            Files.copy(LogFileNames.timeIndexFile(from, base, ""), LogFileNames.timeIndexFile(to, base, suffix),
                    StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void renameSegments(Path dir, List<Long> bases, String from, String to) throws IOException {
        for (long base : bases) {
            Files.move(LogFileNames.logFile(dir, base, from), LogFileNames.logFile(dir, base, to));
            Files.move(LogFileNames.offsetIndexFile(dir, base, from), LogFileNames.offsetIndexFile(dir, base, to));
            Files.move(LogFileNames.timeIndexFile(dir, base, from), LogFileNames.timeIndexFile(dir, base, to));
        }
    }

    private static void truncate(Path file, long size) throws IOException {
        try (var channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            channel.truncate(size);
        }
    }
}
