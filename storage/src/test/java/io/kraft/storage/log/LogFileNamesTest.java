package io.kraft.storage.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Segment file names: the base offset they carry and the renames between a segment's states. */
class LogFileNamesTest {
    private static final Path DIR = Path.of("/data/orders-0");

    @Test
    void aSuffixIsReplacedOnlyWhereTheNameEndsWithIt() {
        Path log = LogFileNames.logFile(DIR, 42, "");
        assertEquals(DIR.resolve("00000000000000000042.log.deleted"),
                LogFileNames.withSuffixReplaced(log, "", LogFileNames.DELETED_SUFFIX));
        Path cleaned = LogFileNames.offsetIndexFile(DIR, 42, LogFileNames.CLEANED_SUFFIX);
        assertEquals(LogFileNames.offsetIndexFile(DIR, 42, LogFileNames.SWAP_SUFFIX),
                LogFileNames.withSuffixReplaced(cleaned, LogFileNames.CLEANED_SUFFIX, LogFileNames.SWAP_SUFFIX));
        assertEquals(LogFileNames.timeIndexFile(DIR, 42, ""), LogFileNames.withSuffixReplaced(
                LogFileNames.timeIndexFile(DIR, 42, LogFileNames.SWAP_SUFFIX), LogFileNames.SWAP_SUFFIX, ""));
        assertThrows(IllegalArgumentException.class,
                () -> LogFileNames.withSuffixReplaced(log, LogFileNames.SWAP_SUFFIX, ""));
    }

    @Test
    void baseOffsetsAreReadFromTwentyDigitNamesOnly() {
        assertEquals(OptionalLong.of(42), LogFileNames.baseOffsetOf("00000000000000000042.log", ".log"));
        assertEquals(OptionalLong.empty(), LogFileNames.baseOffsetOf("42.log", ".log"));
        assertEquals(OptionalLong.empty(), LogFileNames.baseOffsetOf("0000000000000000004x.log", ".log"));
        assertEquals(OptionalLong.empty(), LogFileNames.baseOffsetOf("00000000000000000042.index", ".log"));
    }
}
