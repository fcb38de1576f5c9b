package io.kraft.metadata.store;

import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.loader.MetadataStorage;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.FileSnapshotStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * A node's {@link MetadataStorage}: the {@link MetadataStateStore} in RocksDB, whose checkpoints are the snapshots in
 * Raft's {@link FileSnapshotStore}. The store only mirrors snapshot + log, which Raft replays at every start, so its
 * directory is wiped when this opens; loading a snapshot replaces the directory with the snapshot's checkpoint.
 */
public final class RocksDbMetadataStorage implements MetadataStorage {
    private final Path stateDirectory;
    private final FileSnapshotStore snapshots;
    private MetadataStateStore stateStore;

    /**
     * @param stateDirectory where the RocksDB state store lives (wiped and rebuilt at every start)
     * @param snapshots      the Raft driver's snapshot store: snapshots are loaded from and saved into it
     */
    public RocksDbMetadataStorage(Path stateDirectory, FileSnapshotStore snapshots) {
        this.stateDirectory = Objects.requireNonNull(stateDirectory, "stateDirectory");
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
        deleteRecursively(stateDirectory);
        this.stateStore = MetadataStateStore.open(stateDirectory);
    }

    @Override
    public void apply(MetadataDelta delta) {
        stateStore.apply(delta);
    }

    @Override
    public boolean containsSnapshot(SnapshotId id) {
        return snapshots.contains(id);
    }

    @Override
    public void saveSnapshot(SnapshotId id) {
        snapshots.save(id, stateStore::checkpoint);
    }

    @Override
    public LoadedSnapshot loadSnapshot(SnapshotId id) {
        stateStore.close();
        deleteRecursively(stateDirectory);
        copyRecursively(snapshots.directory(id), stateDirectory);
        stateStore = MetadataStateStore.open(stateDirectory);
        return new LoadedSnapshot(stateStore.snapshotRecords(), stateStore.appliedPosition());
    }

    @Override
    public void close() {
        stateStore.close();
    }

    private static void deleteRecursively(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + path, e);
        }
    }

    private static void copyRecursively(Path source, Path target) {
        try (Stream<Path> walk = Files.walk(source)) {
            for (Path p : walk.toList()) {
                Path destination = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(destination);
                } else {
                    Files.copy(p, destination);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy snapshot " + source + " to " + target, e);
        }
    }
}
