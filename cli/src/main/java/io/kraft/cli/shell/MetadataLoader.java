package io.kraft.cli.shell;

import com.google.protobuf.InvalidProtocolBufferException;
import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.store.MetadataStateStore;
import io.kraft.metadata.store.MetadataStoreException;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.raft.CorruptSnapshotException;
import io.kraft.raft.LogEntry;
import io.kraft.raft.QuorumState;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.CorruptQuorumStateException;
import io.kraft.raft.file.FileQuorumStateStore;
import io.kraft.raft.file.FileRaftLogReader;
import io.kraft.raft.file.MetadataLogDirectory;
import io.kraft.raft.file.SnapshotCatalog;
import io.kraft.storage.DirectoryLock;
import io.kraft.storage.MetaProperties;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * Loads a stopped node's metadata from its metadata log directory without changing it (given as metadata.log.dir or
 * as the {@value MetadataLogDirectory#NAME} directory in it, or a metadata.log.dir an earlier version laid out and no
 * node has started on since): the newest complete
 * snapshot (a RocksDB checkpoint, opened read-only), then the log entries after it up to the commit point, replayed
 * into a {@link MetadataImage}. Raft does not persist its high watermark; the commit point is the position the
 * node's state store had applied ({@value #CONTROLLER_STATE} on a controller, {@value #BROKER_STATE} on a broker-only
 * node), which only ever holds committed records. Without one, every entry is replayed and a note says that
 * uncommitted ones may be among them.
 */
public final class MetadataLoader {
    /** The controller's RocksDB state store inside the metadata log directory. */
    static final String CONTROLLER_STATE = "controller-state";
    /** A broker-only node's RocksDB state store inside its metadata log directory. */
    static final String BROKER_STATE = "broker-state";
    private static final List<String> STATE_STORES = List.of(CONTROLLER_STATE, BROKER_STATE);
    /** RocksDB's lock file, held while the node runs. */
    private static final String LOCK_FILE = "LOCK";

    private MetadataLoader() {
    }

    /**
     * The image a stopped node's metadata log directory holds.
     *
     * @throws MetadataShellException if the node is running, or the directory holds no readable metadata
     */
    public static LoadedMetadata fromDirectory(Path metadataLogDir) {
        CommittedLog log = CommittedLog.open(metadataLogDir);
        MetadataImage snapshotImage = log.snapshot().map(id -> loadSnapshot(log.snapshotDirectory(id), id))
                .orElse(MetadataImage.EMPTY);
        List<String> notes = new ArrayList<>(log.notes());
        MetadataDelta delta = new MetadataDelta(snapshotImage);
        long firstOffset = snapshotImage.offset() + 1;
        if (log.reader().startOffset() > firstOffset) {
            String covered = log.snapshot().map(id -> "the newest complete snapshot, " + id + ", ends at "
                    + id.endOffset()).orElse("no complete snapshot holds what came before");
            String skipped = log.catalog().skipped().isEmpty() ? ""
                    : " (skipped: " + String.join("; ", log.catalog().skipped()) + ")";
            throw new MetadataShellException("the metadata log in " + metadataLogDir + " starts at offset "
                    + log.reader().startOffset() + " but " + covered + ": the records in between are gone" + skipped);
        }
        log.forEachCommitted(firstOffset, entry -> {
            if (entry.isData()) {
                try {
                    delta.replay(parse(entry), entry.offset(), entry.epoch());
                } catch (InvalidMetadataRecordException | IllegalArgumentException e) {
                    throw new MetadataShellException("cannot replay the record at offset " + entry.offset()
                            + " of the metadata log in " + metadataLogDir + ": " + e.getMessage(), e);
                }
            }
        });
        notes.addAll(log.tailNotes());
        MetadataImage image = delta.apply();
        return new LoadedMetadata(image, quorumFacts(log), notes);
    }

    /**
     * The image one snapshot directory ({@code <metadata.log.dir>/__cluster_metadata-0/snapshots/<endOffset>-<epoch>})
     * holds.
     *
     * @throws MetadataShellException if it is missing, corrupt or not a metadata snapshot
     */
    public static LoadedMetadata fromSnapshot(Path snapshotDirectory) {
        SnapshotId id;
        try {
            id = SnapshotCatalog.verify(snapshotDirectory);
        } catch (CorruptSnapshotException | IllegalArgumentException | UncheckedIOException e) {
            throw new MetadataShellException("cannot load snapshot " + snapshotDirectory + ": " + e.getMessage(), e);
        }
        return new LoadedMetadata(loadSnapshot(snapshotDirectory, id), Map.of(), List.of());
    }

    private static MetadataImage loadSnapshot(Path directory, SnapshotId id) {
        try (MetadataStateStore store = MetadataStateStore.openReadOnly(directory)) {
            MetadataImage image = store.loadImage();
            if (image.offset() != id.endOffset() - 1) {
                throw new MetadataShellException("snapshot " + directory + " holds the state at offset "
                        + image.offset() + " but its name says " + (id.endOffset() - 1));
            }
            return image;
        } catch (MetadataStoreException | InvalidMetadataRecordException e) {
            throw new MetadataShellException("cannot load snapshot " + directory + ": " + e.getMessage(), e);
        }
    }

    static MetadataRecord parse(LogEntry entry) {
        try {
            return MetadataRecord.parseFrom(entry.payload());
        } catch (InvalidProtocolBufferException e) {
            throw new MetadataShellException("the entry at offset " + entry.offset()
                    + " is not a metadata record: " + e.getMessage(), e);
        }
    }

    private static Map<String, String> quorumFacts(CommittedLog log) {
        Map<String, String> facts = new LinkedHashMap<>();
        try {
            MetaProperties.read(log.location().nodeDirectory()).ifPresent(meta -> {
                facts.put("clusterId", meta.clusterId());
                facts.put("nodeId", Integer.toString(meta.nodeId()));
            });
        } catch (RuntimeException unreadable) {
            // meta.properties is the start command's business; the shell reads the metadata without it
        }
        try {
            QuorumState state = new FileQuorumStateStore(log.location().logDirectory()).read();
            facts.put("epoch", Integer.toString(state.epoch()));
            facts.put("leaderId", state.leaderId().isPresent() ? Integer.toString(state.leaderId().getAsInt())
                    : "none");
            facts.put("votedId", state.votedId().isPresent() ? Integer.toString(state.votedId().getAsInt()) : "none");
        } catch (CorruptQuorumStateException | UncheckedIOException e) {
            facts.put("epoch", "unreadable (" + e.getMessage() + ")");
        }
        facts.put("logStartOffset", Long.toString(log.reader().startOffset()));
        facts.put("logEndOffset", Long.toString(log.reader().nextOffset()));
        facts.put("committedEndOffset", log.commitEnd().isPresent() ? Long.toString(log.commitEnd().getAsLong())
                : "unknown");
        facts.put("latestSnapshot", log.snapshot().map(SnapshotId::toString).orElse("none"));
        return facts;
    }

    /**
     * The committed part of a metadata log directory: its newest complete snapshot, a reader of the log, and the
     * commit point. Also what {@code --dump-log} prints from.
     */
    static final class CommittedLog {
        private final Path directory;
        private final MetadataLogDirectory.Location location;
        private final SnapshotCatalog catalog;
        private final Optional<SnapshotId> snapshot;
        private final FileRaftLogReader reader;
        private final OptionalLong commitEnd;
        private final List<String> notes = new ArrayList<>();
        private long uncommittedEntries;

        private CommittedLog(Path directory, MetadataLogDirectory.Location location, SnapshotCatalog catalog,
                             FileRaftLogReader reader, OptionalLong commitEnd) {
            this.directory = directory;
            this.location = location;
            this.catalog = catalog;
            this.snapshot = catalog.latest();
            this.reader = reader;
            this.commitEnd = commitEnd;
            for (String skipped : catalog.skipped()) {
                notes.add("skipped an incomplete snapshot: " + skipped);
            }
            if (commitEnd.isEmpty()) {
                notes.add("the commit point is unknown (no readable " + String.join(" or ", STATE_STORES) + " in "
                        + directory + "): entries not yet committed may be included");
            }
        }

        /** @throws MetadataShellException if the node is running or the directory holds no metadata log */
        static CommittedLog open(Path directory) {
            if (!Files.isDirectory(directory)) {
                throw new MetadataShellException("no metadata log directory at " + directory);
            }
            MetadataLogDirectory.Location location = MetadataLogDirectory.locate(directory);
            Path logDir = location.logDirectory();
            // A node started by kraft-cli locks every directory; a state store is locked by any node that opened it.
            List<Path> lockFiles = new ArrayList<>(List.of(location.nodeDirectory().resolve(DirectoryLock.FILE_NAME)));
            STATE_STORES.forEach(store -> lockFiles.add(logDir.resolve(store).resolve(LOCK_FILE)));
            for (Path lockFile : lockFiles) {
                Optional<String> holder = LockHolder.of(lockFile);
                if (holder.isPresent()) {
                    Path named = location.nodeDirectory().toAbsolutePath().relativize(lockFile.toAbsolutePath());
                    throw new MetadataShellException("the node using " + directory + " is running (" + holder.get()
                            + " holds " + named + "): stop it first, or inspect a copy of the directory");
                }
            }
            SnapshotCatalog catalog;
            FileRaftLogReader reader;
            try {
                catalog = SnapshotCatalog.of(logDir);
                reader = FileRaftLogReader.open(logDir);
            } catch (IllegalArgumentException | UncheckedIOException e) {
                throw new MetadataShellException(e.getMessage(), e);
            }
            OptionalLong applied = OptionalLong.empty();
            for (String store : STATE_STORES) {
                OptionalLong end = appliedEnd(logDir.resolve(store));
                if (end.isPresent() && (applied.isEmpty() || end.getAsLong() > applied.getAsLong())) {
                    applied = end;
                }
            }
            OptionalLong commitEnd = applied;
            if (applied.isPresent() && catalog.latest().isPresent()) {
                // A snapshot holds only committed records, even if the state store was being rebuilt.
                commitEnd = OptionalLong.of(Math.max(applied.getAsLong(), catalog.latest().get().endOffset()));
            }
            return new CommittedLog(directory, location, catalog, reader, commitEnd);
        }

        /** The offset after the last record a state store applied, if it holds any. */
        private static OptionalLong appliedEnd(Path stateDirectory) {
            if (!Files.isRegularFile(stateDirectory.resolve("CURRENT"))) {
                return OptionalLong.empty();
            }
            try (MetadataStateStore store = MetadataStateStore.openReadOnly(stateDirectory)) {
                long offset = store.appliedPosition().offset();
                return offset < 0 ? OptionalLong.empty() : OptionalLong.of(offset + 1);
            } catch (MetadataStoreException unreadable) {
                return OptionalLong.empty();
            }
        }

        /**
         * Hands every entry from {@code fromOffset} below the commit point (all of them when it is unknown) to
         * {@code visitor} in offset order, and counts the entries past the commit point.
         */
        void forEachCommitted(long fromOffset, Consumer<LogEntry> visitor) {
            try {
                for (Optional<LogEntry> next = reader.next(); next.isPresent(); next = reader.next()) {
                    LogEntry entry = next.get();
                    if (commitEnd.isPresent() && entry.offset() >= commitEnd.getAsLong()) {
                        uncommittedEntries++;
                    } else if (entry.offset() >= fromOffset) {
                        visitor.accept(entry);
                    }
                }
            } catch (UncheckedIOException e) {
                throw new MetadataShellException(e.getMessage(), e);
            } finally {
                reader.close();
            }
        }

        /** What reading the whole log revealed: a torn tail, entries past the commit point. */
        List<String> tailNotes() {
            List<String> tail = new ArrayList<>();
            reader.stopReason().ifPresent(tail::add);
            if (uncommittedEntries > 0) {
                tail.add(uncommittedEntries + " log entries from offset " + commitEnd.getAsLong()
                        + " on are not known to be committed and were left out");
            }
            return tail;
        }

        Optional<SnapshotId> snapshot() {
            return snapshot;
        }

        /** Where the log's files are, and the node's meta.properties and lock. */
        MetadataLogDirectory.Location location() {
            return location;
        }

        Path snapshotDirectory(SnapshotId id) {
            return catalog.directory(id);
        }

        SnapshotCatalog catalog() {
            return catalog;
        }

        FileRaftLogReader reader() {
            return reader;
        }

        OptionalLong commitEnd() {
            return commitEnd;
        }

        List<String> notes() {
            return notes;
        }
    }
}
