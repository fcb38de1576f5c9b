package io.kraft.raft.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recovery point file: its layout, rewrites in place, and what a torn or absent one reads as. */
class RecoveryPointFileTest {
    @TempDir
    Path dir;

    @Test
    void writesInPlaceAndReadsBack() throws IOException {
        try (RecoveryPointFile file = new RecoveryPointFile(dir)) {
            assertEquals(OptionalLong.empty(), file.read(), "no file yet");
            assertTrue(file.write(1_234, false), "the first write creates the file");
            assertFalse(file.write(17, true), "later ones rewrite it");
            assertEquals(OptionalLong.of(17), file.read());
        }
        byte[] content = Files.readAllBytes(dir.resolve(RecoveryPointFile.NAME));
        assertEquals("00000000000000000017 ", new String(content, 0, 21, StandardCharsets.US_ASCII));
        assertEquals(30, content.length);
        try (RecoveryPointFile reopened = new RecoveryPointFile(dir)) {
            assertEquals(OptionalLong.of(17), reopened.read());
        }
    }

    @Test
    void aTornOrAlteredFileReadsAsEmpty() throws IOException {
        try (RecoveryPointFile file = new RecoveryPointFile(dir)) {
            file.write(99, true);
        }
        byte[] content = Files.readAllBytes(dir.resolve(RecoveryPointFile.NAME));
        assertEquals(OptionalLong.of(99), RecoveryPointFile.parse(content));
        assertEquals(OptionalLong.empty(), RecoveryPointFile.parse(Arrays.copyOf(content, 25)), "torn");
        byte[] altered = content.clone();
        altered[19] = '8';
        assertEquals(OptionalLong.empty(), RecoveryPointFile.parse(altered), "a digit that fails the CRC");
        assertArrayEquals(content, Files.readAllBytes(dir.resolve(RecoveryPointFile.NAME)));
    }
}
