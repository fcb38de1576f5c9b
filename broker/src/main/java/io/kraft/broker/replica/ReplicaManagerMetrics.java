package io.kraft.broker.replica;

import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.broker.metrics.Meter;
import io.kraft.broker.metrics.MetricName;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicDelta;
import io.kraft.metadata.image.TopicImage;
import java.util.Collection;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Kafka's {@code kafka.server:type=ReplicaManager} metrics for one broker: partitions hosted and led, led partitions
 * under-replicated or under their min.insync.replicas (gauges, read when asked), and ISR shrinks and expansions of
 * the partitions this broker leads (meters, counted as the metadata log commits them).
 */
public final class ReplicaManagerMetrics implements MetadataPublisher {
    private static final String DOMAIN = "kafka.server";
    private static final String TYPE = "ReplicaManager";

    private final int brokerId;
    private final Meter isrShrinks;
    private final Meter isrExpands;

    public ReplicaManagerMetrics(int brokerId, KafkaMetrics metrics, Supplier<Collection<Partition>> partitions) {
        this.brokerId = brokerId;
        gauge(metrics, "PartitionCount", "Partitions with a replica on this broker", partitions, p -> true);
        gauge(metrics, "LeaderCount", "Partitions this broker leads", partitions, Partition::isLeader);
        gauge(metrics, "UnderReplicatedPartitions", "Led partitions whose ISR lacks a replica", partitions,
                p -> p.isLeader() && p.registration() != null
                        && p.registration().isr().size() < p.registration().replicas().size());
        gauge(metrics, "UnderMinIsrPartitionCount", "Led partitions whose ISR is under min.insync.replicas",
                partitions, p -> p.isLeader() && p.registration() != null
                        && p.registration().isr().size() < p.minInsyncReplicas());
        isrShrinks = metrics.meter(MetricName.of(DOMAIN, TYPE, "IsrShrinksPerSec"), "shrinks",
                "ISR shrinks of partitions this broker leads");
        isrExpands = metrics.meter(MetricName.of(DOMAIN, TYPE, "IsrExpandsPerSec"), "expands",
                "ISR expansions of partitions this broker leads");
    }

    private static void gauge(KafkaMetrics metrics, String name, String help, Supplier<Collection<Partition>> partitions,
                              Predicate<Partition> counted) {
        metrics.gauge(MetricName.of(DOMAIN, TYPE, name), help,
                () -> partitions.get().stream().filter(counted).count());
    }

    @Override
    public void publish(MetadataDelta delta, MetadataImage image) {
        for (TopicDelta topic : delta.topicsDelta().changedTopics().values()) {
            TopicImage before = topic.image();
            if (before == null) {
                continue;
            }
            for (Map.Entry<Integer, PartitionRegistration> change : topic.partitionChanges().entrySet()) {
                PartitionRegistration now = change.getValue();
                PartitionRegistration was = before.partition(change.getKey());
                if (was == null || now.leader() != brokerId || was.leader() != brokerId) {
                    continue;
                }
                if (now.isr().size() < was.isr().size()) {
                    isrShrinks.mark();
                } else if (now.isr().size() > was.isr().size()) {
                    isrExpands.mark();
                }
            }
        }
    }

    @Override
    public String name() {
        return "ReplicaManagerMetrics";
    }
}
