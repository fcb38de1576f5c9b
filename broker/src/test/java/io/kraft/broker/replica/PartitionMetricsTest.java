package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.TopicPartition;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-partition metrics follow a partition's roles: a follower's lag is named after the leader it fetches from
 * and counts what the leader had at the last fetch, a leader publishes its ISR counts and no lag, and a partition
 * no longer hosted keeps no series.
 */
class PartitionMetricsTest {
    private static final int LOCAL = 2;
    private static final String LOG_END = "kafka_log_log_logendoffset_by_topic_by_partition{";
    private static final String LAG = "kafka_server_fetcherlagmetrics_consumerlag_by_clientid_by_topic_by_partition{";

    @TempDir
    Path dir;

    @Test
    void metricsFollowTheRolesAndLeaveWithThePartition() {
        try (Log log = Log.open(dir.resolve("t-0"), LogConfig.defaults());
             KafkaMetrics metrics = KafkaMetrics.withoutJmx()) {
            Partition partition = new Partition(new TopicPartition("t", 0), UUID.randomUUID(), LOCAL, log, 0L);
            AtomicReference<List<Partition>> hosted = new AtomicReference<>(List.of(partition));
            PartitionMetrics partitionMetrics = new PartitionMetrics(metrics, hosted::get, 1);

            partition.makeFollower(new PartitionRegistration(List.of(1, 2, 3), List.of(1, 2, 3), 1, 0, 0));
            partitionMetrics.reconcile();
            assertEquals(0, value(metrics, LOG_END));
            assertEquals(0, value(metrics, LAG), "no fetch yet: no lag known");
            partition.updateFollowerOffsets(5, 0, 0);
            assertEquals(5, value(metrics, LAG), "the leader had 5 at the last fetch, this log none");
            assertTrue(scrape(metrics).contains("clientId=\"ReplicaFetcherThread-0-1\""));
            assertEquals(0, value(metrics, "kafka_cluster_partition_insyncreplicascount_by_topic_by_partition{"),
                    "a follower publishes 0, as in Kafka");

            partition.makeFollower(new PartitionRegistration(List.of(1, 2, 3), List.of(1, 2, 3), 3, 1, 1));
            partitionMetrics.reconcile();
            String afterLeaderChange = scrape(metrics);
            assertFalse(afterLeaderChange.contains("ReplicaFetcherThread-0-1\""), afterLeaderChange);
            assertTrue(afterLeaderChange.contains("clientId=\"ReplicaFetcherThread-0-3\""), afterLeaderChange);
            assertEquals(0, value(metrics, LAG), "nothing fetched from the new leader yet");

            partition.makeLeader(new PartitionRegistration(List.of(1, 2, 3), List.of(2, 3), LOCAL, 2, 2), 0);
            partitionMetrics.reconcile();
            assertFalse(scrape(metrics).contains("consumerlag_by"), "a leader fetches from no one");
            assertEquals(1, value(metrics, "kafka_cluster_partition_underreplicated_by_topic_by_partition{"));
            assertEquals(2, value(metrics, "kafka_cluster_partition_insyncreplicascount_by_topic_by_partition{"));
            assertEquals(3, value(metrics, "kafka_cluster_partition_replicascount_by_topic_by_partition{"));

            hosted.set(List.of());
            partitionMetrics.reconcile();
            assertFalse(scrape(metrics).contains("topic=\"t\""), "no series of a partition no longer hosted");
            assertEquals(0, partitionMetrics.registeredPartitions());
        }
    }

    private static double value(KafkaMetrics metrics, String series) {
        return scrape(metrics).lines().filter(line -> line.startsWith(series)).findFirst()
                .map(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .orElseThrow(() -> new AssertionError("no " + series));
    }

    private static String scrape(KafkaMetrics metrics) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            metrics.writePrometheus(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
