package io.kraft.broker.replica;

import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.storage.errors.Errors;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the controller which log directory this broker's replicas live in (KIP-858's AssignReplicasToDirs): after a
 * move between log directories, and when the metadata records a replica in a directory it is not in (a report lost
 * to a crash). Assignments wait until a sender is set (the broker registered) and are sent again until the controller
 * records them or answers that the replica is gone.
 */
public final class DirectoryAssigner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryAssigner.class);
    /** Answers after which an assignment is dropped: the topic, partition or replica no longer exists. */
    private static final Set<Errors> GONE = Set.of(Errors.UNKNOWN_TOPIC_ID, Errors.UNKNOWN_TOPIC_OR_PARTITION,
            Errors.NOT_LEADER_OR_FOLLOWER);
    static final long RETRY_BACKOFF_MS = 1_000;

    private final int brokerId;
    private final LogDirectories logDirs;
    private final Map<TopicIdPartition, UUID> pending = new ConcurrentHashMap<>();
    private final ScheduledExecutorService retries;
    private Function<Map<TopicIdPartition, UUID>, CompletableFuture<Map<TopicIdPartition, Errors>>> sender;
    private boolean inFlight;
    private boolean closed;

    DirectoryAssigner(int brokerId, LogDirectories logDirs) {
        this.brokerId = brokerId;
        this.logDirs = logDirs;
        this.retries = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "kraft-dir-assign-" + brokerId);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Where assignments go: the controller's AssignReplicasToDirs, answering each partition's error. */
    public void setSender(
            Function<Map<TopicIdPartition, UUID>, CompletableFuture<Map<TopicIdPartition, Errors>>> sender) {
        synchronized (this) {
            this.sender = sender;
        }
        send();
    }

    /** The partition's replica now lives where its log is (a move completed). */
    void moved(Partition partition) {
        assign(idOf(partition), logDirs.directoryId(logDirs.directoryOf(partition.log())));
    }

    /** The metadata's record of the replica's directory, checked against where its log is; a wrong one is fixed. */
    void check(Partition partition, PartitionRegistration registration) {
        Optional<UUID> recorded = registration.directoryOf(brokerId);
        if (recorded.isEmpty()) {
            return;
        }
        UUID actual;
        try {
            actual = logDirs.directoryId(logDirs.directoryOf(partition.log()));
        } catch (RuntimeException e) {
            LOG.warn("Broker {} cannot tell the directory of {}: {}", brokerId, partition.topicPartition(),
                    e.getMessage());
            return;
        }
        if (!recorded.get().equals(actual)) {
            LOG.info("Broker {}: the metadata places {} in directory {}, its log is in {} ({})", brokerId,
                    partition.topicPartition(), recorded.get(), actual, logDirs.directoryOf(partition.log()));
            assign(idOf(partition), actual);
        }
    }

    /** The assignments not yet recorded by the controller. */
    Map<TopicIdPartition, UUID> pending() {
        return Map.copyOf(pending);
    }

    private void assign(TopicIdPartition id, UUID directory) {
        pending.put(id, directory);
        send();
    }

    private void send() {
        Map<TopicIdPartition, UUID> batch;
        Function<Map<TopicIdPartition, UUID>, CompletableFuture<Map<TopicIdPartition, Errors>>> to;
        synchronized (this) {
            if (closed || inFlight || sender == null || pending.isEmpty()) {
                return;
            }
            inFlight = true;
            batch = Map.copyOf(pending);
            to = sender;
        }
        CompletableFuture<Map<TopicIdPartition, Errors>> answer;
        try {
            answer = to.apply(batch);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((results, failure) -> answered(batch, results, failure));
    }

    private void answered(Map<TopicIdPartition, UUID> batch, Map<TopicIdPartition, Errors> results,
                          Throwable failure) {
        boolean retry = failure != null;
        if (failure != null) {
            LOG.warn("Broker {} could not report the directories of {} replicas, retrying: {}", brokerId,
                    batch.size(), failure.getMessage());
        } else {
            for (Map.Entry<TopicIdPartition, UUID> entry : batch.entrySet()) {
                Errors error = results.getOrDefault(entry.getKey(), Errors.UNKNOWN_SERVER_ERROR);
                if (error == Errors.NONE || GONE.contains(error)) {
                    pending.remove(entry.getKey(), entry.getValue());
                    LOG.info("Broker {} reported {} in directory {}: {}", brokerId, entry.getKey(), entry.getValue(),
                            error);
                } else {
                    retry = true;
                    LOG.warn("Broker {} could not report {} in directory {}, retrying: {}", brokerId, entry.getKey(),
                            entry.getValue(), error);
                }
            }
        }
        synchronized (this) {
            inFlight = false;
            if (closed) {
                return;
            }
            if (retry) {
                retries.schedule(this::send, RETRY_BACKOFF_MS, TimeUnit.MILLISECONDS);
                return;
            }
        }
        send(); // assignments added while this one was in flight
    }

    private static TopicIdPartition idOf(Partition partition) {
        return new TopicIdPartition(partition.topicId(), partition.topicPartition().partition());
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        retries.shutdownNow();
    }
}
