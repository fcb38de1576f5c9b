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
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's {@link MetadataStorage}: the {@link MetadataStateStore} in RocksDB, whose checkpoints are the snapshots in
 * Raft's {@link FileSnapshotStore}. The store only mirrors snapshot + log, which Raft replays at every start, so its
 * directory is wiped when this opens; loading a snapshot replaces the directory with the snapshot's checkpoint.
 *
 * <p>RocksDB is written on a thread of its own, in the order the deltas came: the caller's loop (a controller's, a
 * broker's metadata follower's) only keeps the image in memory and never waits for RocksDB, whose writes, memtable
 * flushes and checkpoints grow with the state (at a million partitions a checkpoint's flush took 0.4-1.7 s). A
 * snapshot is the RocksDB checkpoint (hard links) taken on that thread once every delta before it is written; the
 * rest, which also grows with the state (fsync and CRC of every file, the manifest, the rename into the snapshot
 * store), runs on a second thread so that later deltas are not held up by the disk. A write that fails stops the
 * state thread for good: the next call on the caller's thread throws it, and no snapshot of a state that missed it
 * is ever stored.
 */
public final class RocksDbMetadataStorage implements MetadataStorage {
    private static final Logger LOG = LoggerFactory.getLogger(RocksDbMetadataStorage.class);

    private final Path stateDirectory;
    /** Where a checkpoint waits while the background thread stores it: beside the state, never inside it. */
    private final Path stagingDirectory;
    private final FileSnapshotStore snapshots;
    /** Applies deltas and takes checkpoints, one at a time and in order. */
    private final ExecutorService stateThread;
    /** Moves checkpoints into the snapshot store. */
    private final ExecutorService writer;
    /** Bounds the deltas waiting for the state thread (each holds its batch's records). */
    private final Semaphore pendingDeltas = new Semaphore(MAX_PENDING_DELTAS);
    /** The first write that failed on the state thread; once set, nothing more is written. */
    private volatile RuntimeException failure;
    /**
     * Written and closed only on the state thread (or at close, once it stopped); the caller's thread encodes deltas
     * with it between loads, which it waits for.
     */
    private volatile MetadataStateStore stateStore;

    /** Deltas the caller may be ahead of RocksDB by before {@link #apply} waits: a catching-up node's bursts fit. */
    static final int MAX_PENDING_DELTAS = 256;

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
        this.stateThread = singleThread("metadata-state-" + stateDirectory.getFileName());
        this.writer = singleThread("metadata-snapshot-writer-" + stateDirectory.getFileName());
    }

    private static ExecutorService singleThread(String name) {
        return Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Encodes the delta's changes here (the caller may change the delta as soon as this returns: a publisher queue
     * folds later batches into it) and hands the write to the state thread; waits only if
     * {@link #MAX_PENDING_DELTAS} are still unwritten.
     */
    @Override
    public void apply(MetadataDelta delta) {
        throwIfFailed();
        pendingDeltas.acquireUninterruptibly();
        MetadataStateStore.EncodedDelta encoded = null;
        try {
            encoded = stateStore.encode(delta);
            MetadataStateStore.EncodedDelta write = encoded;
            stateThread.execute(() -> {
                try (write) {
                    if (failure == null) {
                        stateStore.write(write);
                    }
                } catch (RuntimeException e) {
                    fail(e);
                } finally {
                    pendingDeltas.release();
                }
            });
        } catch (RuntimeException e) {
            if (encoded != null) {
                encoded.close();
            }
            pendingDeltas.release();
            throw e;
        }
    }

    /** Waits until every delta handed to {@link #apply} so far is in RocksDB (tests and benchmarks time with it). */
    public void awaitApplied() {
        onStateThread(() -> null);
    }

    private void fail(RuntimeException e) {
        if (failure == null) {
            failure = e;
            LOG.error("The metadata state store in {} stopped after a failed write: {}", stateDirectory, e.toString());
        }
    }

    private void throwIfFailed() {
        RuntimeException failed = failure;
        if (failed != null) {
            throw new MetadataStoreException("The metadata state store in " + stateDirectory + " failed earlier: "
                    + failed.getMessage(), failed);
        }
    }

    /** Runs {@code work} on the state thread after every delta handed over so far, and waits for its result. */
    private <T> T onStateThread(Callable<T> work) {
        Future<T> result = stateThread.submit(() -> {
            throwIfFailed();
            return work.call();
        });
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetadataStoreException("Interrupted while waiting for the metadata state store in "
                    + stateDirectory, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new MetadataStoreException("The metadata state store in " + stateDirectory + " failed: "
                    + e.getCause(), e.getCause());
        }
    }

    @Override
    public boolean containsSnapshot(SnapshotId id) {
        return snapshots.contains(id);
    }

    /** The checkpoint is taken on the state thread after the deltas applied so far, then stored on the writer's. */
    @Override
    public CompletableFuture<Void> saveSnapshot(SnapshotId id) {
        throwIfFailed();
        Path staged = stagingDirectory.resolve(id.toString());
        return CompletableFuture.runAsync(() -> {
            throwIfFailed();
            deleteRecursively(staged);
            try {
                Files.createDirectories(stagingDirectory);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create " + stagingDirectory, e);
            }
            long applied = stateStore.checkpoint(staged).offset();
            if (applied != id.endOffset() - 1) {
                deleteRecursively(staged);
                throw new MetadataStoreException("Snapshot " + id + " would hold the state at offset " + applied
                        + ", not " + (id.endOffset() - 1));
            }
        }, stateThread).thenRunAsync(() -> {
            try {
                snapshots.save(id, target -> moveOrCopy(staged, target));
            } finally {
                deleteRecursively(staged);
            }
        }, writer);
    }

    @Override
    public LoadedSnapshot loadSnapshot(SnapshotId id) {
        return onStateThread(() -> {
            replaceState(id);
            return new LoadedSnapshot(stateStore.snapshotRecords(), stateStore.appliedPosition());
        });
    }

    @Override
    public LoadedDelta loadSnapshotDelta(SnapshotId id) {
        return onStateThread(() -> {
            long started = System.nanoTime();
            replaceState(id);
            long replaceNanos = System.nanoTime() - started;
            return new LoadedDelta(stateStore.snapshotDelta(), stateStore.appliedPosition(), replaceNanos);
        });
    }

    private void replaceState(SnapshotId id) {
        stateStore.close();
        deleteRecursively(stateDirectory);
        linkOrCopy(snapshots.directory(id), stateDirectory);
        stateStore = MetadataStateStore.open(stateDirectory);
    }

    /** Waits for the deltas handed over and a snapshot being written out, then closes the state store. */
    @Override
    public void close() {
        stateThread.shutdown();
        try {
            if (!stateThread.awaitTermination(60, TimeUnit.SECONDS)) {
                LOG.warn("The metadata state store in {} was still being written at close", stateDirectory);
            }
            writer.shutdown();
            if (!writer.awaitTermination(60, TimeUnit.SECONDS)) {
                LOG.warn("A metadata snapshot of {} was still being written at close", stateDirectory);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (stateThread.isTerminated()) {
            stateStore.close();
        }
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
