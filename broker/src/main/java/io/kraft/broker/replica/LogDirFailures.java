package io.kraft.broker.replica;

import io.kraft.broker.concurrent.ExecutorShutdown;
import io.kraft.metadata.controller.OfflineLogDir;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.MetaProperties;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's side of log directory failures (Kafka's JBOD model, KIP-112, KIP-858): takes a failed directory
 * offline on a thread of its own (off the thread that hit the error, which may hold a log's lock), remembers the
 * partitions this broker should host but cannot (their requests get KAFKA_STORAGE_ERROR), and says what the
 * heartbeat reports to the controller. The replica manager stops serving the partitions ({@link Host}).
 */
final class LogDirFailures implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogDirFailures.class);

    /** What the replica manager does when a directory fails. */
    interface Host {
        /** The lock that serializes metadata changes with close and with failures. */
        Object stateLock();

        /** Whether the replica manager is closed (checked under the state lock). */
        boolean isClosed();

        /** The partitions hosted now. */
        Collection<Partition> partitions();

        /** Stops serving {@code partition} (under the state lock): fetchers, the partition map, leadership. */
        void stopServing(Partition partition);

        /** Answers the requests waiting on {@code tp} (outside the state lock). */
        void completeWaitingOn(TopicPartition tp);

        /** Writes every online directory's high watermark checkpoint. */
        void checkpointHighWatermarks();
    }

    /** A hosted partition whose log directory is offline. */
    private record OfflineReplica(UUID topicId, UUID directoryId) {
    }

    private final int brokerId;
    private volatile LogDirectories logDirs;
    private final ConcurrentHashMap<TopicPartition, OfflineReplica> offline = new ConcurrentHashMap<>();
    private final ExecutorService handler;
    private volatile Host host;
    private volatile LogDirListener listener = LogDirListener.NONE;

    LogDirFailures(int brokerId) {
        this.brokerId = brokerId;
        this.handler = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "kraft-log-dir-failure-" + brokerId);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Attaches the directories (opened with {@link #submit} as their failure callback) and their host. */
    void attach(LogDirectories directories, Host serving) {
        this.logDirs = Objects.requireNonNull(directories, "directories");
        this.host = Objects.requireNonNull(serving, "serving");
    }

    void setListener(LogDirListener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** Queues the failure of {@code dir} for the failure thread. */
    void submit(Path dir, String reason) {
        handler.execute(() -> handle(dir, reason));
    }

    /** Whether {@code tp} is hosted here in an offline directory. */
    boolean isOffline(TopicPartition tp) {
        return offline.containsKey(tp);
    }

    /** KAFKA_STORAGE_ERROR for a partition in an offline directory; nothing for others. */
    void throwIfOffline(TopicPartition tp) {
        OfflineReplica replica = offline.get(tp);
        if (replica != null) {
            throw new ReplicaException(Errors.KAFKA_STORAGE_ERROR, "broker " + brokerId + " holds " + tp
                    + " in log directory " + MetaProperties.toKafkaUuid(replica.directoryId()) + ", which is offline");
        }
    }

    /**
     * Whether the partition's replica is offline here: it is in a failed directory, the controller records it in a
     * directory this broker does not have online, or no directory holds its log while one is offline and the
     * partition is not new (its log may be in the offline one: creating it empty elsewhere would let an empty replica
     * count as in sync). Remembers the answer.
     */
    boolean isOfflineReplica(TopicPartition tp, UUID topicId, PartitionRegistration registration, boolean isNew,
                             boolean hosted) {
        OfflineReplica known = offline.get(tp);
        if (known != null) {
            if (known.topicId().equals(topicId)) {
                return true;
            }
            offline.remove(tp); // the topic was recreated: its new partition starts anew
        }
        Optional<UUID> recorded = registration.directoryOf(brokerId);
        if (recorded.isPresent() && !logDirs.onlineDirectoryIds().contains(recorded.get())) {
            offline.put(tp, new OfflineReplica(topicId, recorded.get()));
            LOG.info("Broker {} does not host {}: its replica is in log directory {}, which is not online here",
                    brokerId, tp, MetaProperties.toKafkaUuid(recorded.get()));
            return true;
        }
        Map<Path, UUID> offlineDirs = logDirs.offlineDirectories();
        if (!isNew && !offlineDirs.isEmpty() && !hosted && logDirs.log(tp).isEmpty()) {
            offline.put(tp, new OfflineReplica(topicId, offlineDirs.values().iterator().next()));
            LOG.warn("Broker {} does not host {}: it has no log for it while log directory {} is offline, where the log"
                    + " may be; the controller moves it to other replicas", brokerId, tp, offlineDirs.keySet().iterator()
                    .next());
            return true;
        }
        return false;
    }

    /** The partition of {@code topicId} is no longer this broker's (deleted or reassigned away). */
    void forget(TopicPartition tp, UUID topicId) {
        offline.computeIfPresent(tp, (p, replica) -> replica.topicId().equals(topicId) ? null : replica);
    }

    /**
     * Takes a failed log directory offline (on the failure thread): its partitions stop being served here
     * (fetchers stop, leaderships are given up locally, waiting requests are answered), its files are released
     * without another write, and the listener reports it, or stops the broker when no directory is left.
     */
    private void handle(Path dir, String reason) {
        Host current = host;
        if (current == null) {
            return;
        }
        List<TopicPartition> moved = new ArrayList<>();
        boolean anyLeft;
        synchronized (current.stateLock()) {
            if (current.isClosed() || !logDirs.takeOfflineIfKnown(dir)) {
                return;
            }
            UUID directoryId = logDirs.directoryId(dir);
            List<Partition> inDir = new ArrayList<>();
            for (Partition partition : current.partitions()) {
                if (logDirs.directoryOf(partition.log()).equals(dir)) {
                    inDir.add(partition);
                }
            }
            for (Partition partition : inDir) {
                // Offline before it is gone, so that a request that no longer finds it also finds why.
                offline.put(partition.topicPartition(), new OfflineReplica(partition.topicId(), directoryId));
                current.stopServing(partition);
                moved.add(partition.topicPartition());
            }
            anyLeft = !logDirs.onlineDirectoryIds().isEmpty();
            LOG.error("Broker {} took log directory {} (id {}) offline after an I/O error: {}; its {} partitions go to"
                    + " other replicas{}", brokerId, dir, MetaProperties.toKafkaUuid(directoryId), reason, moved.size(),
                    anyLeft ? "" : ", and no log directory is left");
        }
        moved.forEach(current::completeWaitingOn);
        if (!anyLeft) {
            listener.allLogDirsOffline("every log directory of broker " + brokerId + " is offline (the last, "
                    + dir + ": " + reason + ")");
            return;
        }
        try {
            current.checkpointHighWatermarks();
        } catch (RuntimeException e) {
            LOG.warn("Broker {} could not checkpoint high watermarks after losing {}: {}", brokerId, dir,
                    e.getMessage());
        }
        listener.logDirOffline(dir);
    }

    /**
     * What this broker's heartbeat tells the controller about its offline log directories: each one, with the
     * partitions it held that the metadata does not yet record there (none, once the controller acted).
     */
    List<OfflineLogDir> reports(MetadataImage image) {
        Map<UUID, List<TopicIdPartition>> byDirectory = new LinkedHashMap<>();
        logDirs.offlineDirectories().values().forEach(id -> byDirectory.put(id, new ArrayList<>()));
        offline.forEach((tp, replica) -> {
            TopicImage topic = image.topics().topic(replica.topicId());
            PartitionRegistration registration = topic == null ? null : topic.partition(tp.partition());
            if (registration != null && registration.replicas().contains(brokerId)
                    && !registration.directoryOf(brokerId).equals(Optional.of(replica.directoryId()))) {
                byDirectory.computeIfAbsent(replica.directoryId(), id -> new ArrayList<>())
                        .add(new TopicIdPartition(replica.topicId(), tp.partition()));
            }
        });
        List<OfflineLogDir> reports = new ArrayList<>();
        byDirectory.forEach((id, partitionIds) -> reports.add(new OfflineLogDir(id, partitionIds)));
        return reports;
    }

    /** Partitions this broker should host that are in offline log directories. */
    Set<TopicPartition> offlinePartitions() {
        return Set.copyOf(offline.keySet());
    }

    /** Waits (bounded) for a failure being handled. */
    @Override
    public void close() {
        ExecutorShutdown.afterQueued(handler, Duration.ofSeconds(10));
    }
}
