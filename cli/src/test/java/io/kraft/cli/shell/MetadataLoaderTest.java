package io.kraft.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.store.MetadataStateStore;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.raft.LogEntry;
import io.kraft.raft.QuorumState;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.FileQuorumStateStore;
import io.kraft.raft.file.FileRaftLog;
import io.kraft.raft.file.FileSnapshotStore;
import io.kraft.storage.DirectoryLock;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading hand-made metadata log directories: snapshot plus log, log only, the commit point, damage, refusals. */
class MetadataLoaderTest {
    /** Offset 0 is the leader-change marker; the sample records follow from offset 1. */
    private static final int EPOCH = 2;
    private static final UUID AUDIT_ID = new UUID(99, 100);

    @TempDir
    Path tmp;

    private Path dir() {
        return tmp.resolve("metadata");
    }

    /** Writes the leader marker and {@code records} (from offset 1) to the log; returns the next offset. */
    private long writeLog(List<MetadataRecord> records) {
        try (FileRaftLog log = FileRaftLog.open(dir(), 1024)) {
            List<LogEntry> entries = new ArrayList<>();
            entries.add(LogEntry.leaderChange(0, EPOCH, 1));
            for (MetadataRecord record : records) {
                entries.add(LogEntry.data(entries.size(), EPOCH, record.toByteArray()));
            }
            log.append(entries);
            return log.endOffset();
        }
    }

    /** A state store with {@code records} (from offset 1) applied, in {@code directory}. */
    private static void writeStateStore(Path directory, List<MetadataRecord> records) {
        try (MetadataStateStore store = MetadataStateStore.open(directory)) {
            store.apply(records, records.size(), EPOCH);
        }
    }

    /** Saves a snapshot of the first {@code count} records, as the controller does; returns its id. */
    private SnapshotId writeSnapshot(List<MetadataRecord> records, int count) {
        Path state = tmp.resolve("snapshot-source");
        writeStateStore(state, records.subList(0, count));
        SnapshotId id = new SnapshotId(count + 1, EPOCH);
        try (MetadataStateStore store = MetadataStateStore.open(state)) {
            FileSnapshotStore.open(dir()).save(id, store::checkpoint);
        }
        return id;
    }

    private static List<MetadataRecord> withAudit() {
        List<MetadataRecord> records = new ArrayList<>(SampleMetadata.records());
        records.add(SampleMetadata.topic("audit", AUDIT_ID));
        records.add(SampleMetadata.partition(AUDIT_ID, 0, 1, List.of(1)));
        return records;
    }

    private static MetadataTree treeOf(LoadedMetadata loaded) {
        return loaded.tree();
    }

    private static List<String> children(MetadataTree tree, String... path) {
        return List.copyOf(((ShellNode.Directory) tree.find(List.of(path)).orElseThrow()).children().keySet());
    }

    private static String file(MetadataTree tree, String... path) {
        return ((ShellNode.File) tree.find(List.of(path)).orElseThrow()).text();
    }

    @Test
    void logOnlyReplaysEveryEntryAndSaysTheCommitPointIsUnknown() {
        long end = writeLog(withAudit());
        new FileQuorumStateStore(dir()).write(new QuorumState(EPOCH, OptionalInt.of(1), OptionalInt.of(1)));

        LoadedMetadata loaded = MetadataLoader.fromDirectory(dir());
        MetadataTree tree = treeOf(loaded);
        assertEquals(List.of("audit", "orders", "payments"), children(tree, "topics"));
        assertEquals(Long.toString(end - 1), file(tree, "image", "offset"));
        assertEquals("unknown", file(tree, "quorum", "committedEndOffset"));
        assertEquals("none", file(tree, "quorum", "latestSnapshot"));
        assertEquals("0", file(tree, "quorum", "logStartOffset"));
        assertEquals(Long.toString(end), file(tree, "quorum", "logEndOffset"));
        assertEquals("2", file(tree, "quorum", "epoch"));
        assertEquals("1", file(tree, "quorum", "leaderId"));
        assertEquals(1, loaded.notes().size(), loaded.notes().toString());
        assertTrue(loaded.notes().get(0).endsWith("entries not yet committed may be included"), loaded.notes().get(0));
    }

    @Test
    void aBrokerOnlyNodesStateStoreGivesTheCommitPointToo() {
        List<MetadataRecord> records = withAudit();
        writeLog(records);
        // A broker-only node keeps its state store in broker-state; it applied all but the last entry.
        writeStateStore(dir().resolve(MetadataLoader.BROKER_STATE), records.subList(0, records.size() - 1));

        LoadedMetadata loaded = MetadataLoader.fromDirectory(dir());
        assertEquals(Long.toString(records.size()), file(treeOf(loaded), "quorum", "committedEndOffset"));
        assertEquals(List.of("1 log entries from offset " + records.size()
                + " on are not known to be committed and were left out"), loaded.notes());
    }

    @Test
    void snapshotThenTheLogAfterItUpToWhatTheControllerApplied() {
        List<MetadataRecord> records = withAudit();
        writeLog(records);
        SnapshotId snapshot = writeSnapshot(records, 15);
        try (FileRaftLog log = FileRaftLog.open(dir(), 1024)) {
            log.deletePrefix(snapshot);
        }
        // The controller applied everything but the audit topic's partition (the last entry).
        writeStateStore(dir().resolve(MetadataLoader.CONTROLLER_STATE), records.subList(0, records.size() - 1));
        Map<Path, String> before = sizes(dir());

        LoadedMetadata loaded = MetadataLoader.fromDirectory(dir());
        MetadataTree tree = treeOf(loaded);
        assertEquals(List.of("audit", "orders", "payments"), children(tree, "topics"));
        assertEquals(List.of("id", "name"), children(tree, "topics", "audit"), "its partition is not committed");
        assertEquals(List.of("0", "id", "name"), children(tree, "topics", "payments"), "from the log after it");
        assertEquals("compact", file(tree, "configs", "topic", "payments", "cleanup.policy"));
        assertEquals(Long.toString(records.size() - 1), file(tree, "image", "offset"));
        assertEquals(snapshot.toString(), file(tree, "quorum", "latestSnapshot"));
        assertEquals(Long.toString(snapshot.endOffset()), file(tree, "quorum", "logStartOffset"));
        assertEquals(Long.toString(records.size()), file(tree, "quorum", "committedEndOffset"));
        assertEquals(List.of("1 log entries from offset " + records.size()
                + " on are not known to be committed and were left out"), loaded.notes());
        assertEquals(before, sizes(dir()), "loading changes nothing in the directory");
    }

    @Test
    void aLoneSnapshotLoadsOnItsOwnAndABadOneIsRefusedInOneLine() throws IOException {
        List<MetadataRecord> records = SampleMetadata.records();
        writeLog(records);
        SnapshotId id = writeSnapshot(records, 5);
        Path snapshotDir = dir().resolve("snapshots").resolve(id.toString());

        LoadedMetadata loaded = MetadataLoader.fromSnapshot(snapshotDir);
        MetadataImage image = loaded.image();
        assertEquals(5, image.offset());
        assertEquals(List.of("orders"), List.copyOf(image.topics().topicsByName().keySet()));
        assertEquals(Map.of(), loaded.quorumFacts());

        MetadataShellException renamed = assertThrows(MetadataShellException.class,
                () -> MetadataLoader.fromSnapshot(Files.createDirectories(tmp.resolve("copy"))));
        assertTrue(renamed.getMessage().endsWith("its name is not of the form <endOffset>-<epoch>"),
                renamed.getMessage());
        Files.write(snapshotDir.resolve("CURRENT"), "garbage".getBytes());
        MetadataShellException corrupt = assertThrows(MetadataShellException.class,
                () -> MetadataLoader.fromSnapshot(snapshotDir));
        assertTrue(corrupt.getMessage().contains("does not match its manifest"), corrupt.getMessage());
        assertEquals(1, corrupt.getMessage().lines().count());
    }

    @Test
    void aTornTailIsReportedAndWhatPrecedesItLoads() throws IOException {
        writeLog(withAudit());
        Path segment;
        try (Stream<Path> files = Files.list(dir())) {
            segment = files.filter(p -> p.toString().endsWith(".raftlog")).sorted().reduce((a, b) -> b).orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(segment);
        Files.write(segment, java.util.Arrays.copyOf(bytes, bytes.length - 2));

        LoadedMetadata loaded = MetadataLoader.fromDirectory(dir());
        assertEquals(List.of("id", "name"), children(treeOf(loaded), "topics", "audit"));
        assertTrue(loaded.notes().stream().anyMatch(note -> note.contains("ends early: a torn entry at offset")),
                loaded.notes().toString());
    }

    @Test
    void aLogThatStartsAfterTheOnlyUsableSnapshotIsRefused() throws IOException {
        List<MetadataRecord> records = SampleMetadata.records();
        writeLog(records);
        SnapshotId snapshot = writeSnapshot(records, 10);
        try (FileRaftLog log = FileRaftLog.open(dir(), 1024)) {
            log.deletePrefix(snapshot);
        }
        Files.write(dir().resolve("snapshots").resolve(snapshot.toString()).resolve("CURRENT"), "bad".getBytes());

        MetadataShellException gap = assertThrows(MetadataShellException.class,
                () -> MetadataLoader.fromDirectory(dir()));
        assertTrue(gap.getMessage().contains("starts at offset 11 but no complete snapshot holds what came before"),
                gap.getMessage());
        assertTrue(gap.getMessage().contains("does not match its manifest"), "names the skipped snapshot");
    }

    @Test
    void aRunningNodeOrAMissingDirectoryIsRefused() {
        writeLog(SampleMetadata.records());
        Path state = dir().resolve(MetadataLoader.CONTROLLER_STATE);
        try (MetadataStateStore running = MetadataStateStore.open(state)) {
            MetadataShellException refused = assertThrows(MetadataShellException.class,
                    () -> MetadataLoader.fromDirectory(dir()));
            assertEquals("the node using " + dir() + " is running (process " + ProcessHandle.current().pid()
                    + " holds controller-state/LOCK): stop it first, or inspect a copy of the directory",
                    refused.getMessage());
        }
        MetadataLoader.fromDirectory(dir());
        // A broker-only node keeps no RocksDB store: the directory lock kraft-cli start takes tells instead.
        try (DirectoryLock running = DirectoryLock.acquire(dir())) {
            MetadataShellException refused = assertThrows(MetadataShellException.class,
                    () -> MetadataLoader.fromDirectory(dir()));
            assertEquals("the node using " + dir() + " is running (process " + ProcessHandle.current().pid()
                    + " holds .lock): stop it first, or inspect a copy of the directory", refused.getMessage());
        }
        MetadataLoader.fromDirectory(dir());

        MetadataShellException missing = assertThrows(MetadataShellException.class,
                () -> MetadataLoader.fromDirectory(tmp.resolve("nowhere")));
        assertEquals("no metadata log directory at " + tmp.resolve("nowhere"), missing.getMessage());
        MetadataShellException noLog = assertThrows(MetadataShellException.class,
                () -> MetadataLoader.fromDirectory(tmp));
        assertTrue(noLog.getMessage().endsWith("holds no metadata log (no *.raftlog segment)"), noLog.getMessage());
    }

    @Test
    void dumpLogPrintsEachCommittedEntryOnALine() {
        List<MetadataRecord> records = withAudit();
        writeLog(records);
        writeStateStore(dir().resolve(MetadataLoader.CONTROLLER_STATE), records.subList(0, 3));
        StringWriter out = new StringWriter();

        List<String> notes = MetadataLogDump.print(dir(), new PrintWriter(out, true));
        List<String> lines = out.toString().lines().toList();
        assertEquals(4, lines.size(), out.toString());
        assertEquals("offset=0 epoch=2 LEADER_CHANGE leaderId=1", lines.get(0));
        assertEquals("offset=1 epoch=2 FEATURE_LEVEL name=\"metadata.version\" level=3", lines.get(1));
        assertTrue(lines.get(3).startsWith("offset=3 epoch=2 REGISTER_BROKER brokerId=2 "), lines.get(3));
        assertEquals(List.of((records.size() - 3) + " log entries from offset 4 on are not known to be committed "
                + "and were left out"), notes);
    }

    /** Every file's size and modification time. */
    private static Map<Path, String> sizes(Path directory) {
        Map<Path, String> sizes = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(directory)) {
            for (Path path : walk.filter(Files::isRegularFile).toList()) {
                sizes.put(directory.relativize(path), Files.size(path) + " bytes, modified "
                        + Files.getLastModifiedTime(path));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return sizes;
    }
}
