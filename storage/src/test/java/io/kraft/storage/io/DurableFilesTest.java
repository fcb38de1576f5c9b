package io.kraft.storage.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableFilesTest {
    @TempDir
    Path dir;

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private List<String> fileNames() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void writeAtomicallyCreatesTheFileAndLeavesNoTempFileBehind() throws IOException {
        Path file = dir.resolve("checkpoint");
        DurableFiles.writeAtomically(file, bytes("one"));
        assertArrayEquals(bytes("one"), Files.readAllBytes(file));
        assertEquals(List.of("checkpoint"), fileNames());
    }

    @Test
    void writeAtomicallyReplacesTheWholeOldContent() throws IOException {
        Path file = dir.resolve("checkpoint");
        DurableFiles.writeAtomically(file, bytes("a much longer first content"));
        DurableFiles.writeAtomically(file, bytes("short"));
        assertArrayEquals(bytes("short"), Files.readAllBytes(file), "no tail of the longer old content survives");
    }

    @Test
    void withoutFsyncTheReplacementIsStillWholeAndTheTempFileGone() throws IOException {
        Path file = dir.resolve("snapshot");
        DurableFiles.writeAtomically(file, bytes("old"), false);
        DurableFiles.writeAtomically(file, bytes("new"), false);
        assertArrayEquals(bytes("new"), Files.readAllBytes(file));
        assertEquals(List.of("snapshot"), fileNames());
    }

    @Test
    void aFailedReplacementRemovesItsTempFileAndLeavesTheTargetAsItWas() throws IOException {
        // A non-empty directory where the file should go: the rename cannot replace it.
        Path file = dir.resolve("blocked");
        Files.createDirectories(file.resolve("child"));
        IOException failure = assertThrows(IOException.class, () -> DurableFiles.writeAtomically(file, bytes("x")));
        assertTrue(failure.getMessage().contains(file.toString()), failure.getMessage());
        assertFalse(Files.exists(DurableFiles.tempFileOf(file)), "the temp file is cleaned up");
        assertTrue(Files.isDirectory(file.resolve("child")), "the target is untouched");
    }

    @Test
    void aStaleTempFileFromACrashIsOverwrittenNotAppendedTo() throws IOException {
        Path file = dir.resolve("quorum-state");
        Files.write(DurableFiles.tempFileOf(file), bytes("torn garbage from before a crash"));
        DurableFiles.writeAtomically(file, bytes("state"));
        assertArrayEquals(bytes("state"), Files.readAllBytes(file));
        assertEquals(List.of("quorum-state"), fileNames());
    }

    @Test
    void writeAndFsyncWritesInPlace() throws IOException {
        Path file = dir.resolve("manifest");
        DurableFiles.writeAndFsync(file, bytes("first version"));
        DurableFiles.writeAndFsync(file, bytes("second"));
        assertArrayEquals(bytes("second"), Files.readAllBytes(file));
        assertEquals(List.of("manifest"), fileNames());
    }

    @Test
    void atomicMoveReplacesTheTargetAndWorksForDirectories() throws IOException {
        Path from = dir.resolve("from");
        Path to = dir.resolve("to");
        Files.write(from, bytes("new"));
        Files.write(to, bytes("old"));
        DurableFiles.atomicMove(from, to);
        assertArrayEquals(bytes("new"), Files.readAllBytes(to));
        assertFalse(Files.exists(from));

        Path tempDir = Files.createDirectories(dir.resolve("snapshot.tmp"));
        Files.write(tempDir.resolve("data"), bytes("d"));
        DurableFiles.atomicMove(tempDir, dir.resolve("snapshot"));
        assertArrayEquals(bytes("d"), Files.readAllBytes(dir.resolve("snapshot").resolve("data")));
    }

    @Test
    void failuresNameTheFileAndTheStep() {
        Path missing = dir.resolve("missing");
        IOException rename = assertThrows(IOException.class,
                () -> DurableFiles.atomicMove(missing, dir.resolve("target")));
        assertTrue(rename.getMessage().startsWith("cannot rename " + missing), rename.getMessage());
        IOException fsync = assertThrows(IOException.class, () -> DurableFiles.fsyncFile(missing));
        assertTrue(fsync.getMessage().startsWith("cannot fsync " + missing), fsync.getMessage());
        IOException fsyncDir = assertThrows(IOException.class, () -> DurableFiles.fsyncDirectory(missing));
        assertTrue(fsyncDir.getMessage().startsWith("cannot fsync directory " + missing), fsyncDir.getMessage());
    }

    @Test
    void fsyncingAnExistingFileOrDirectorySucceeds() throws IOException {
        Path file = Files.write(dir.resolve("data"), bytes("d"));
        DurableFiles.fsyncFile(file);
        DurableFiles.fsyncDirectory(dir);
    }
}
