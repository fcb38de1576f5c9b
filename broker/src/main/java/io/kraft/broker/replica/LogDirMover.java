package io.kraft.broker.replica;

import io.kraft.broker.quota.ReplicationQuota;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogStorageException;
import io.kraft.storage.log.TopicPartition;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves replicas between this broker's log directories (AlterReplicaLogDirs, KIP-113): for each move a
 * {@link FutureReplica} in the target directory is filled by one background thread (Kafka's
 * ReplicaAlterLogDirsThread) at most at {@code replica.alter.log.dirs.io.max.bytes.per.second}, kept caught up while the
 * partition serves produce and fetch, then swapped in under the partition's lock; the old log is deleted. A move whose
 * partition goes away or whose target directory fails is abandoned and its future log deleted. A wish for a partition
 * not hosted here yet decides where its log is created ({@link LogDirWishes} bounds how long it is kept).
 */
final class LogDirMover implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogDirMover.class);
    /** The most one copy step reads, so the lock is held briefly and the throttle is honoured closely. */
    static final int MAX_CHUNK_BYTES = 1024 * 1024;
    private static final long IDLE_WAIT_MS = 100;
    private static final long THROTTLED_WAIT_MS = 20;

    private final int brokerId;
    private final LogDirectories logDirs;
    /** The hosted partition, or null. */
    private final Function<TopicPartition, Partition> hosted;
    /** Whether the partition is in a failed log directory. */
    private final Predicate<TopicPartition> offline;
    private final ReplicationQuota quota;
    private final LongSupplier clock;
    /** Hears each completed move (the controller is told the replica's new directory). */
    private final Consumer<Partition> moved;
    /** Guards the moves and each copy step; taken before a partition's lock, never after. */
    private final Object lock = new Object();
    private final Map<TopicPartition, FutureReplica> moves = new ConcurrentHashMap<>();
    private final LogDirWishes wishes;
    /** This broker's metadata: a wish names the topic it was made for, and goes when that topic does. */
    private final Supplier<MetadataImage> image;
    private long lastPurgeMs;
    private final Thread thread;
    private volatile boolean closed;

    LogDirMover(int brokerId, LogDirectories logDirs, Function<TopicPartition, Partition> hosted,
                Predicate<TopicPartition> offline, ReplicationQuota quota, LongSupplier clock,
                Consumer<Partition> moved, Supplier<MetadataImage> image) {
        this.brokerId = brokerId;
        this.logDirs = logDirs;
        this.hosted = hosted;
        this.offline = offline;
        this.quota = quota;
        this.clock = clock;
        this.moved = moved;
        this.wishes = new LogDirWishes(brokerId);
        this.image = image;
        this.thread = new Thread(this::run, "kraft-alter-log-dirs-" + brokerId);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /**
     * Moves the partition's replica to {@code requested}: NONE once the move runs (or the replica is already there),
     * LOG_DIR_NOT_FOUND for a directory not in log.dirs, KAFKA_STORAGE_ERROR for an offline one or a replica in one,
     * REPLICA_NOT_AVAILABLE for a partition not hosted here yet, whose log is then created in that directory.
     */
    Errors requestMove(TopicPartition tp, Path requested) {
        Optional<Path> dir = logDirs.configuredDirectory(requested);
        if (dir.isEmpty()) {
            return Errors.LOG_DIR_NOT_FOUND;
        }
        if (!logDirs.isOnline(dir.get()) || offline.test(tp)) {
            return Errors.KAFKA_STORAGE_ERROR;
        }
        synchronized (lock) {
            Partition partition = hosted.apply(tp);
            if (partition == null) {
                wishes.put(tp, dir.get(), Optional.ofNullable(image.get().topics().topic(tp.topic()))
                        .map(TopicImage::id), clock.getAsLong());
                return Errors.REPLICA_NOT_AVAILABLE;
            }
            wishes.remove(tp);
            FutureReplica existing = moves.get(tp);
            if (logDirs.directoryOf(partition.log()).equals(dir.get())) {
                if (existing != null) {
                    abandon(tp, "its replica is to stay in " + dir.get());
                }
                return Errors.NONE;
            }
            if (existing != null && existing.dir().equals(dir.get())) {
                return Errors.NONE;
            }
            if (existing != null) {
                abandon(tp, "it now moves to " + dir.get());
            }
            Log future = null;
            try {
                future = logDirs.getOrCreateFutureLog(tp, dir.get());
                // The topic id goes with the log: stray-log checks and a recreated topic rely on it.
                PartitionMetadataFile.write(future.dir(), partition.topicId());
                moves.put(tp, new FutureReplica(tp, dir.get(), future));
            } catch (LogStorageException e) {
                if (future != null) {
                    logDirs.reportIoError(future, e);
                }
                LOG.warn("Broker {} cannot move {} to {}: {}", brokerId, tp, dir.get(), e.getMessage());
                return Errors.KAFKA_STORAGE_ERROR;
            }
            LOG.info("Broker {} moves {} from {} to {}", brokerId, tp, logDirs.directoryOf(partition.log()), dir.get());
            lock.notifyAll();
            return Errors.NONE;
        }
    }

    /** The directory a wish chose for the partition's log, if it is not hosted yet. */
    Optional<Path> wishedDirectory(TopicPartition tp) {
        return wishes.peek(tp, clock.getAsLong());
    }

    /**
     * The partition came to be hosted: a future log left by a move a restart interrupted resumes, and a wish for a
     * log that already existed elsewhere starts a move.
     */
    void onHosted(Partition partition) {
        TopicPartition tp = partition.topicPartition();
        Path wish = wishes.take(tp, clock.getAsLong()).orElse(null);
        synchronized (lock) {
            Optional<Map.Entry<Path, Log>> future = logDirs.futureLog(tp);
            Optional<UUID> copiedTopic = future.flatMap(f -> PartitionMetadataFile.read(f.getValue().dir()));
            if (copiedTopic.isPresent() && !copiedTopic.get().equals(partition.topicId())) {
                // The topic was deleted and recreated while the broker was down: the copy is of the old one.
                moves.remove(tp);
                logDirs.deleteFutureLog(tp);
                LOG.info("Broker {} deleted the future log of {} in {}: it copied topic id {}, the topic now has id {}",
                        brokerId, tp, future.get().getKey(), copiedTopic.get(), partition.topicId());
            } else if (future.isPresent() && !moves.containsKey(tp)) {
                moves.put(tp, new FutureReplica(tp, future.get().getKey(), future.get().getValue()));
                LOG.info("Broker {} resumes moving {} to {} from offset {}", brokerId, tp, future.get().getKey(),
                        future.get().getValue().logEndOffset());
                lock.notifyAll();
                return;
            }
        }
        if (wish != null && !logDirs.directoryOf(partition.log()).equals(wish)) {
            requestMove(tp, wish);
        }
    }

    /** The partition is no longer hosted here (deleted or reassigned away): its move and wish are dropped. */
    void cancel(TopicPartition tp) {
        wishes.remove(tp);
        synchronized (lock) {
            if (moves.containsKey(tp)) {
                abandon(tp, "it is no longer hosted here");
            }
        }
    }

    /** The moves in progress, by partition: the target directory and the bytes copied so far by this process. */
    Map<TopicPartition, FutureReplica> moves() {
        return Map.copyOf(moves);
    }

    private void run() {
        while (!closed) {
            purgeWishes();
            boolean copied = false;
            boolean throttled = false;
            for (TopicPartition tp : List.copyOf(moves.keySet())) {
                if (closed) {
                    return;
                }
                if (quota.isExceeded()) {
                    quota.recordHeldBack();
                    throttled = true;
                    break;
                }
                copied |= step(tp);
            }
            if (!copied) {
                synchronized (lock) {
                    try {
                        lock.wait(throttled ? THROTTLED_WAIT_MS : IDLE_WAIT_MS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }
    }

    /** At most once a second: wishes for partitions that never came, or whose topic was deleted, are forgotten. */
    private void purgeWishes() {
        long nowMs = clock.getAsLong();
        if (nowMs - lastPurgeMs >= 1_000) {
            lastPurgeMs = nowMs;
            wishes.purge(nowMs, id -> image.get().topics().topic(id) != null);
        }
    }

    /** One copy step of one move, completing it once caught up; whether any bytes were copied. */
    boolean step(TopicPartition tp) {
        synchronized (lock) {
            FutureReplica move = moves.get(tp);
            if (move == null || closed) {
                return false;
            }
            Partition partition = hosted.apply(tp);
            if (partition == null) {
                abandon(tp, "it is no longer hosted here");
                return false;
            }
            if (!logDirs.isOnline(move.dir())) {
                abandon(tp, "log directory " + move.dir() + " is offline");
                return false;
            }
            try {
                long nowMs = clock.getAsLong();
                int copied = move.copyFrom(partition.log(), chunkBytes(), nowMs);
                quota.record(copied);
                if (move.caughtUp(partition.log())) {
                    complete(partition, move);
                }
                return copied > 0;
            } catch (RuntimeException e) {
                abandon(tp, e.getMessage());
                return false;
            }
        }
    }

    private int chunkBytes() {
        long bound = quota.bound();
        return bound <= 0 || bound >= MAX_CHUNK_BYTES ? MAX_CHUNK_BYTES : (int) Math.max(1, bound);
    }

    private void complete(Partition partition, FutureReplica move) {
        TopicPartition tp = move.topicPartition();
        Path from = logDirs.directoryOf(partition.log());
        partition.replaceLog(current -> {
            move.finish(current, clock.getAsLong());
            return logDirs.completeMove(tp, move.dir(), current.config().fileDeleteDelayMs());
        });
        moves.remove(tp);
        LOG.info("Broker {} moved {} from {} to {} at offset {} ({} bytes copied)", brokerId, tp, from, move.dir(),
                partition.logEndOffset(), move.copiedBytes());
        moved.accept(partition);
    }

    private void abandon(TopicPartition tp, String reason) {
        FutureReplica move = moves.remove(tp);
        LOG.warn("Broker {} abandons moving {} to {}: {}", brokerId, tp, move == null ? "?" : move.dir(), reason);
        try {
            logDirs.deleteFutureLog(tp);
        } catch (RuntimeException e) {
            LOG.warn("Broker {} could not delete the future log of {}: {}", brokerId, tp, e.getMessage());
        }
    }

    /** Stops copying (without interrupting a step: that would close its files); moves resume at the next start. */
    @Override
    public void close() {
        closed = true;
        synchronized (lock) {
            lock.notifyAll();
        }
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
