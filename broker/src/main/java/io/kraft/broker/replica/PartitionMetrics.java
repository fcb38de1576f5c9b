package io.kraft.broker.replica;

import io.kraft.broker.fetch.follower.ReplicaFetcherManager;
import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.broker.metrics.MetricName;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.storage.log.TopicPartition;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Kafka's per-partition metrics for the partitions this broker hosts: {@code kafka.log:type=Log} (size, segments,
 * log start and end), {@code kafka.cluster:type=Partition} (under-replicated, ISR and replica counts, zero unless
 * this broker leads, as in Kafka) and, on followers, {@code kafka.server:type=FetcherLagMetrics,name=ConsumerLag}.
 * Every value is read from the live partition when asked. After each change of topics in the metadata, and when a log
 * directory goes offline, the registered set is matched to the hosted partitions, so a partition moved away, deleted
 * or lost with its log dir loses its metrics.
 */
public final class PartitionMetrics implements MetadataPublisher {
    private static final List<LogGauge> LOG_GAUGES = List.of(
            new LogGauge("Size", "Bytes of the partition's log on disk", p -> p.log().sizeInBytes()),
            new LogGauge("NumLogSegments", "Segments of the partition's log", p -> p.log().numberOfSegments()),
            new LogGauge("LogStartOffset", "First offset of the partition's log", Partition::logStartOffset),
            new LogGauge("LogEndOffset", "Offset the next record of the partition gets", Partition::logEndOffset));
    private static final List<LogGauge> PARTITION_GAUGES = List.of(
            new LogGauge("UnderReplicated", "1 when this broker leads the partition and its ISR lacks a replica",
                    p -> led(p) && p.registration().isr().size() < p.registration().replicas().size() ? 1 : 0),
            new LogGauge("InSyncReplicasCount", "ISR size of a partition this broker leads, else 0",
                    p -> led(p) ? p.registration().isr().size() : 0),
            new LogGauge("ReplicasCount", "Replicas of a partition this broker leads, else 0",
                    p -> led(p) ? p.registration().replicas().size() : 0));

    private final KafkaMetrics metrics;
    private final Supplier<Collection<Partition>> hosted;
    private final int numReplicaFetchers;
    /** What is registered per partition; guarded by this (the metadata and log-dir-failure threads reconcile). */
    private final Map<TopicPartition, Registered> registered = new HashMap<>();

    /** @param numReplicaFetchers {@code num.replica.fetchers}, which picks the fetcher a lag is named after */
    public PartitionMetrics(KafkaMetrics metrics, Supplier<Collection<Partition>> hosted, int numReplicaFetchers) {
        this.metrics = metrics;
        this.hosted = hosted;
        this.numReplicaFetchers = numReplicaFetchers;
    }

    @Override
    public void publish(MetadataDelta delta, MetadataImage image) {
        // Only topic changes make the replica manager host, drop or re-role a partition; the walk over every
        // hosted partition (milliseconds at 10,000) is skipped for the rest.
        if (delta.hasTopicChanges()) {
            reconcile();
        }
    }

    /** Registers the metrics of newly hosted partitions and removes those of partitions no longer hosted. */
    public synchronized void reconcile() {
        Set<TopicPartition> seen = new HashSet<>();
        for (Partition partition : hosted.get()) {
            TopicPartition tp = partition.topicPartition();
            seen.add(tp);
            Registered was = registered.get(tp);
            int fetchingFrom = partition.isLeader() ? PartitionRegistration.NO_LEADER : partition.leaderId();
            if (was != null && was.partition == partition && was.fetchingFrom == fetchingFrom) {
                continue;
            }
            if (was == null || was.partition != partition) {
                for (LogGauge gauge : LOG_GAUGES) {
                    metrics.gauge(gauge.name("kafka.log", "Log", tp), gauge.help,
                            () -> gauge.value.applyAsDouble(partition));
                }
                for (LogGauge gauge : PARTITION_GAUGES) {
                    metrics.gauge(gauge.name("kafka.cluster", "Partition", tp), gauge.help,
                            () -> gauge.value.applyAsDouble(partition));
                }
            }
            if (was != null && was.fetchingFrom != PartitionRegistration.NO_LEADER) {
                metrics.remove(lagName(tp, was.fetchingFrom));
            }
            if (fetchingFrom != PartitionRegistration.NO_LEADER) {
                metrics.gauge(lagName(tp, fetchingFrom), "Leader's high watermark as last fetched minus this "
                        + "follower's log end offset", () -> lag(partition));
            }
            registered.put(tp, new Registered(partition, fetchingFrom));
        }
        registered.entrySet().removeIf(entry -> {
            if (seen.contains(entry.getKey())) {
                return false;
            }
            unregister(entry.getKey(), entry.getValue());
            return true;
        });
    }

    /** How many partitions have metrics registered. */
    public synchronized int registeredPartitions() {
        return registered.size();
    }

    private void unregister(TopicPartition tp, Registered was) {
        for (LogGauge gauge : LOG_GAUGES) {
            metrics.remove(gauge.name("kafka.log", "Log", tp));
        }
        for (LogGauge gauge : PARTITION_GAUGES) {
            metrics.remove(gauge.name("kafka.cluster", "Partition", tp));
        }
        if (was.fetchingFrom != PartitionRegistration.NO_LEADER) {
            metrics.remove(lagName(tp, was.fetchingFrom));
        }
    }

    /** Kafka's fetcher lag: the leader's high watermark in the last fetch answer minus the next offset to fetch. */
    static long lag(Partition follower) {
        long leaderHighWatermark = follower.lastLeaderHighWatermark();
        return leaderHighWatermark < 0 ? 0 : Math.max(0, leaderHighWatermark - follower.logEndOffset());
    }

    /** The lag's name; the client id is Kafka's fetcher thread name: the fetcher's index and the leader's id. */
    private MetricName lagName(TopicPartition tp, int leaderId) {
        return MetricName.of("kafka.server", "FetcherLagMetrics", "ConsumerLag")
                .tagged("clientId", "ReplicaFetcherThread-"
                        + ReplicaFetcherManager.fetcherIndex(tp, numReplicaFetchers) + "-" + leaderId)
                .tagged("topic", tp.topic()).tagged("partition", Integer.toString(tp.partition()));
    }

    private static boolean led(Partition partition) {
        return partition.isLeader() && partition.registration() != null;
    }

    @Override
    public String name() {
        return "PartitionMetrics";
    }

    private record Registered(Partition partition, int fetchingFrom) {
    }

    private record LogGauge(String metric, String help, ToDoubleFunction<Partition> value) {
        MetricName name(String domain, String type, TopicPartition tp) {
            return MetricName.of(domain, type, metric).tagged("topic", tp.topic())
                    .tagged("partition", Integer.toString(tp.partition()));
        }
    }
}
