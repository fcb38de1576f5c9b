package io.kraft.metadata.store;

import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.loader.MetadataStorage;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.FileSnapshotStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's {@link MetadataStorage}: the {@link MetadataStateStore} in RocksDB, whose checkpoints are the snapshots in
 * Raft's {@link FileSnapshotStore}. The store only mirrors snapshot + log, which Raft replays at every start, so its
 * directory is wiped when this opens; loading a snapshot replaces the directory with the snapshot's checkpoint.
 *
 * <p>Saving a snapshot takes the RocksDB checkpoint (hard links, the state as of now) on the caller's thread and
 * hands the rest, which grows with the state (fsync and CRC of every file, the manifest, the rename into the
 * snapshot store), to a thread of its own, so the controller's loop is not held up by the disk.
 */
public final class RocksDbMetadataStorage implements MetadataStorage {
    private static final Logger LOG = LoggerFactory.getLogger(RocksDbMetadataStorage.class);

    private final Path stateDirectory;
    /** Where a checkpoint waits while the background thread stores it: beside the state, never inside it. */
    private final Path stagingDirectory;
    private final FileSnapshotStore snapshots;
    private final ExecutorService writer;
    private MetadataStateStore stateStore;

    /**
     * @param stateDirectory where the RocksDB state store lives (wiped and rebuilt at every start)
     * @param snapshots      the Raft driver's snapshot store: snapshots are loaded from and saved into it
     */
    public RocksDbMetadataStorage(Path stateDirectory, FileSnapshotStore snapshots) {
        this.stateDirectory = Objects.requireNonNull(stateDirectory, "stateDirectory");
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
        this.stagingDirectory = stateDirectory.resolveSibling(stateDirectory.getFileName() + ".snapshot-staging");
        deleteRecursively(stateDirectory);
        deleteRecursively(stagingDirectory);
        this.stateStore = MetadataStateStore.open(stateDirectory);
        String threadName = "metadata-snapshot-writer-" + stateDirectory.getFileName();
        this.writer = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
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
    public CompletableFuture<Void> saveSnapshot(SnapshotId id) {
        Path staged = stagingDirectory.resolve(id.toString());
        deleteRecursively(staged);
        try {
            Files.createDirectories(stagingDirectory);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create " + stagingDirectory, e);
        }
        stateStore.checkpoint(staged);
        return CompletableFuture.runAsync(() -> {
            try {
                snapshots.save(id, target -> moveOrCopy(staged, target));
            } finally {
                deleteRecursively(staged);
            }
        }, writer);
    }

    @Override
    public LoadedSnapshot loadSnapshot(SnapshotId id) {
        replaceState(id);
        return new LoadedSnapshot(stateStore.snapshotRecords(), stateStore.appliedPosition());
    }

    @Override
    public LoadedDelta loadSnapshotDelta(SnapshotId id) {
        long started = System.nanoTime();
        replaceState(id);
        long replaceNanos = System.nanoTime() - started;
        return new LoadedDelta(stateStore.snapshotDelta(), stateStore.appliedPosition(), replaceNanos);
    }

    private void replaceState(SnapshotId id) {
        stateStore.close();
        deleteRecursively(stateDirectory);
        linkOrCopy(snapshots.directory(id), stateDirectory);
        stateStore = MetadataStateStore.open(stateDirectory);
    }

    /** Waits for a snapshot being written out, then closes the state store. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(60, TimeUnit.SECONDS)) {
                LOG.warn("A metadata snapshot of {} was still being written at close", stateDirectory);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stateStore.close();
    }

    // A checkpoint is hard links into the state directory's files, so a rename moves it at no cost.
    private static void moveOrCopy(Path source, Path target) {
        try {
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            linkOrCopy(source, target);
        }
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

    /**
     * Copies a snapshot's checkpoint into the state directory, hard-linking its table files as RocksDB's own
     * checkpoints do: RocksDB never changes an {@code .sst} file once written (it only deletes it, which leaves the
     * snapshot's link), so only the small files it appends to or rewrites (manifest, options, current) are copied.
     * At a million partitions this spares copying tens of megabytes before every load.
     */
    private static void linkOrCopy(Path source, Path target) {
        try (Stream<Path> walk = Files.walk(source)) {
            for (Path p : walk.toList()) {
                Path destination = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(destination);
                } else if (!p.getFileName().toString().endsWith(".sst") || !tryLink(destination, p)) {
                    Files.copy(p, destination);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy snapshot " + source + " to " + target, e);
        }
    }

    private static boolean tryLink(Path link, Path existing) {
        try {
            Files.createLink(link, existing);
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false; // another file system, or none that links: copy instead
        }
    }
}
