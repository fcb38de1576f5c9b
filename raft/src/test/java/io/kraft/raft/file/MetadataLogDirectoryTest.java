package io.kraft.raft.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.LogEntry;
import io.kraft.raft.QuorumState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetadataLogDirectoryTest {
    private static final List<String> STATE_STORES = List.of("controller-state", "broker-state");

    @TempDir
    Path root;

    @Test
    void aNewNodeGetsKafkasSubdirectoryAndKeepsIt() {
        Path logDir = MetadataLogDirectory.prepare(root, STATE_STORES);
        assertEquals(root.resolve("__cluster_metadata-0"), logDir);
        assertTrue(Files.isDirectory(logDir));
        assertEquals(logDir, MetadataLogDirectory.prepare(root, STATE_STORES));
    }

    @Test
    void movesTheEarlierLayoutAndLeavesTheLogDirectorysOwnFiles() throws IOException {
        writeEarlierLayout();
        Map<String, String> before = contents(root);

        Path logDir = MetadataLogDirectory.prepare(root, STATE_STORES);

        Map<String, String> after = contents(root);
        Map<String, String> expected = new TreeMap<>();
        before.forEach((name, content) -> expected.put(
                isMetadata(name) ? "__cluster_metadata-0/" + name : name, content));
        assertEquals(expected, after);
        assertFalse(Files.exists(root.resolve(MetadataLogDirectory.MIGRATING)));
        try (FileRaftLog log = FileRaftLog.open(logDir, 1024)) {
            assertEquals(3, log.endOffset(), "the moved log opens with its entries");
        }
        assertEquals(new QuorumState(4, OptionalInt.of(1), OptionalInt.of(1)), new FileQuorumStateStore(logDir).read());
    }

    @Test
    void aMoveStoppedAtAnyStepLosesNothingAndTheNextStartFinishesIt() throws IOException {
        writeEarlierLayout();
        Map<String, String> before = contents(root);
        Map<String, String> expected = new TreeMap<>();
        before.forEach((name, content) -> expected.put(
                isMetadata(name) ? "__cluster_metadata-0/" + name : name, content));
        Path pristine = Files.createTempDirectory(root.getParent(), "pristine");
        copyTree(root, pristine);

        int steps = 0;
        for (int crashAfter = 0; ; crashAfter++) {
            deleteTree(root);
            copyTree(pristine, root);
            CrashingOperations crashing = new CrashingOperations(crashAfter);
            try {
                MetadataLogDirectory.prepare(root, STATE_STORES, crashing);
            } catch (UncheckedIOException crashed) {
                // Every file is somewhere: in place, half way, or moved.
                assertEquals(before.values().stream().sorted().toList(),
                        contents(root).values().stream().sorted().toList(), "after " + crashAfter + " steps");
                MetadataLogDirectory.prepare(root, STATE_STORES);
                assertEquals(expected, contents(root), "restarted after " + crashAfter + " steps");
                steps++;
                continue;
            }
            assertEquals(expected, contents(root), "a move of " + crashAfter + " steps");
            break;
        }
        assertTrue(steps > 8, "every step was interrupted once: " + steps);
        deleteTree(pristine);
    }

    @Test
    void bothLayoutsAtOnceAreRefusedAndLeftAlone() throws IOException {
        writeEarlierLayout();
        Files.createDirectories(root.resolve("__cluster_metadata-0"));
        Map<String, String> before = contents(root);
        MetadataLogLayoutException refused = assertThrows(MetadataLogLayoutException.class,
                () -> MetadataLogDirectory.prepare(root, STATE_STORES));
        assertTrue(refused.getMessage().contains("holds both the metadata log directory __cluster_metadata-0 and "
                + "metadata files outside it (00000000000000000000.raftlog, controller-state, log-start-snapshot, "
                + "quorum-state, snapshots)"), refused.getMessage());
        assertEquals(before, contents(root));
    }

    @Test
    void toolsFindTheLogFromEitherDirectoryOrInAnEarlierLayout() throws IOException {
        Path logDir = MetadataLogDirectory.prepare(root, STATE_STORES);
        assertEquals(new MetadataLogDirectory.Location(logDir, root), MetadataLogDirectory.locate(root));
        MetadataLogDirectory.Location fromLogDir = MetadataLogDirectory.locate(logDir);
        assertEquals(logDir, fromLogDir.logDirectory());
        assertEquals(root.toAbsolutePath().normalize(), fromLogDir.nodeDirectory());

        Path earlier = Files.createDirectories(root.resolve("earlier"));
        try (FileRaftLog log = FileRaftLog.open(earlier, 1024)) {
            log.append(List.of(LogEntry.data(0, 1, new byte[]{1})));
        }
        assertEquals(new MetadataLogDirectory.Location(earlier, earlier), MetadataLogDirectory.locate(earlier));
    }

    /** What a node of an earlier version left in a metadata.log.dir that was also its log directory. */
    private void writeEarlierLayout() throws IOException {
        try (FileRaftLog log = FileRaftLog.open(root, 1024)) {
            log.append(List.of(LogEntry.data(0, 1, new byte[]{1}), LogEntry.data(1, 1, new byte[]{2}),
                    LogEntry.data(2, 1, new byte[]{3})));
        }
        Files.delete(root.resolve(FileRaftLog.CLEAN_SHUTDOWN_FILE)); // earlier versions wrote none
        new FileQuorumStateStore(root).write(new QuorumState(4, OptionalInt.of(1), OptionalInt.of(1)));
        Files.writeString(root.resolve("log-start-snapshot"), "1 1\n");
        Files.createDirectories(root.resolve("snapshots/incoming"));
        Files.writeString(Files.createDirectories(root.resolve("snapshots/00000000000000000002-0000000001"))
                .resolve("MANIFEST"), "manifest");
        Files.writeString(Files.createDirectories(root.resolve("controller-state")).resolve("CURRENT"), "MANIFEST-1");
        // the node's and the partition logs' own files, which stay where they are
        Files.writeString(root.resolve("meta.properties"), "version=1\n");
        Files.writeString(root.resolve(".lock"), "");
        Files.writeString(root.resolve(".kraft_cleanshutdown"), "");
        Files.writeString(root.resolve("recovery-point-offset-checkpoint"), "0\n1\norders 0 5\n");
        Files.writeString(Files.createDirectories(root.resolve("orders-0")).resolve("00000000000000000000.log"), "x");
    }

    private static boolean isMetadata(String relativePath) {
        String first = relativePath.split("/")[0];
        return first.endsWith(".raftlog") || List.of("quorum-state", "log-start-snapshot", "snapshots",
                "controller-state").contains(first);
    }

    /** Every file under {@code dir} (relative path → content), and every empty directory (→ "<dir>"). */
    private static Map<String, String> contents(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path path : walk.toList()) {
                String relative = dir.relativize(path).toString();
                String stable = relative.replace(MetadataLogDirectory.MIGRATING + "/", "");
                if (Files.isRegularFile(path)) {
                    files.put(stable, java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(path)));
                } else if (!path.equals(dir) && isEmpty(path) && !relative.equals(MetadataLogDirectory.MIGRATING)
                        && !relative.equals(MetadataLogDirectory.NAME)) {
                    files.put(stable, "<dir>");
                }
            }
        }
        return files;
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> listing = Files.list(dir)) {
            return listing.findAny().isEmpty();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path path : walk.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path path : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                if (!path.equals(dir)) {
                    Files.delete(path);
                }
            }
        }
    }

    /** Carries out the first {@code steps} operations, then fails every one, as if the process had died there. */
    private static final class CrashingOperations implements MetadataLogDirectory.FileOperations {
        private int remaining;

        CrashingOperations(int steps) {
            this.remaining = steps;
        }

        @Override
        public void move(Path source, Path target) throws IOException {
            step();
            MetadataLogDirectory.DURABLE.move(source, target);
        }

        @Override
        public void fsyncDirectory(Path directory) throws IOException {
            step();
            MetadataLogDirectory.DURABLE.fsyncDirectory(directory);
        }

        private void step() throws IOException {
            if (remaining-- <= 0) {
                throw new IOException("crashed");
            }
        }
    }
}
