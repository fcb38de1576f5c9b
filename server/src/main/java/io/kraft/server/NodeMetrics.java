package io.kraft.server;

import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.broker.metrics.MetricName;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.raft.QuorumDescription;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.RaftStats;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The metrics a node assembly adds beside its broker's: the metadata quorum as this node sees it
 * ({@code kafka.server:type=raft-metrics}: current leader and epoch, high watermark, log end, commit latency;
 * {@code snapshot-emitter-metrics}: the latest snapshot's age) and, on a controller,
 * Kafka's {@code kafka.controller:type=KafkaController} gauges read from the committed image.
 */
final class NodeMetrics {
    private static final long DESCRIBE_CACHE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private NodeMetrics() {
    }

    /** Raft gauges from {@code driver}'s description, asked at most once a second. */
    static void registerRaft(KafkaMetrics metrics, RaftDriver driver) {
        CachedDescription description = new CachedDescription(driver);
        String type = "raft-metrics";
        metrics.gauge(MetricName.of("kafka.server", type, "current-leader"), "The metadata quorum's leader (-1: none)",
                () -> description.get().leaderId().orElse(-1));
        metrics.gauge(MetricName.of("kafka.server", type, "current-epoch"), "The metadata quorum's epoch",
                () -> description.get().epoch());
        metrics.gauge(MetricName.of("kafka.server", type, "high-watermark"), "The metadata log's committed offset",
                () -> description.get().highWatermark());
        RaftStats stats = driver.stats();
        metrics.gauge(MetricName.of("kafka.server", type, "log-end-offset"), "The metadata log's end offset here",
                stats::logEndOffset);
        metrics.gauge(MetricName.of("kafka.server", type, "log-end-epoch"), "The epoch of the metadata log's last entry",
                stats::logEndEpoch);
        metrics.gauge(MetricName.of("kafka.server", type, "commit-latency-avg"),
                "Mean ms from an append to its commit on the leader, over the last minute", stats::commitLatencyAvgMs);
        metrics.gauge(MetricName.of("kafka.server", type, "commit-latency-max"),
                "Longest ms from an append to its commit on the leader, over the last minute", stats::commitLatencyMaxMs);
        metrics.gauge(MetricName.of("kafka.server", "snapshot-emitter-metrics", "latest-snapshot-generated-age-ms"),
                "Ms since this node made or loaded its latest metadata snapshot (-1: none)", stats::latestSnapshotAgeMs);
    }

    /** KafkaController gauges; {@code active} tells whether this node's controller is the active one. */
    static void registerController(KafkaMetrics metrics, BooleanSupplier active, Supplier<MetadataImage> image) {
        String domain = "kafka.controller";
        String type = "KafkaController";
        metrics.gauge(MetricName.of(domain, type, "ActiveControllerCount"), "1 on the active controller, else 0",
                () -> active.getAsBoolean() ? 1 : 0);
        metrics.gauge(MetricName.of(domain, type, "GlobalTopicCount"), "Topics in the cluster",
                () -> image.get().topics().topicsById().size());
        metrics.gauge(MetricName.of(domain, type, "GlobalPartitionCount"), "Partitions in the cluster",
                () -> image.get().topics().topicsById().values().stream().mapToLong(t -> t.partitions().size()).sum());
        metrics.gauge(MetricName.of(domain, type, "OfflinePartitionsCount"), "Partitions without a leader",
                () -> offlinePartitions(image.get()));
        metrics.gauge(MetricName.of(domain, type, "ActiveBrokerCount"), "Registered unfenced brokers",
                () -> image.get().cluster().unfencedBrokerIds().size());
        metrics.gauge(MetricName.of(domain, type, "FencedBrokerCount"), "Registered fenced brokers",
                () -> image.get().cluster().brokers().size() - image.get().cluster().unfencedBrokerIds().size());
    }

    private static long offlinePartitions(MetadataImage image) {
        long offline = 0;
        for (TopicImage topic : image.topics().topicsById().values()) {
            for (PartitionRegistration partition : topic.partitions().values()) {
                if (partition.leader() == PartitionRegistration.NO_LEADER) {
                    offline++;
                }
            }
        }
        return offline;
    }

    /** The driver's last description, refreshed when older than a second (a scrape reads several gauges). */
    private static final class CachedDescription {
        private final RaftDriver driver;
        private QuorumDescription last;
        private long lastNanos;

        CachedDescription(RaftDriver driver) {
            this.driver = driver;
        }

        synchronized QuorumDescription get() {
            long now = System.nanoTime();
            if (last == null || now - lastNanos > DESCRIBE_CACHE_NANOS) {
                try {
                    last = driver.describe().get(1, TimeUnit.SECONDS);
                    lastNanos = now;
                } catch (Exception e) {
                    if (e instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                    }
                    throw new IllegalStateException("the Raft driver did not describe the quorum: " + e);
                }
            }
            return last;
        }
    }
}
