package io.kraft.server.replica;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.replica.ReplicationConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-partition log and replica metrics as operators read them on three brokers: the leader's log grows with what a
 * kafka-clients producer writes, its partition gauges count the ISR, the follower's fetcher lag returns to 0, and a
 * partition reassigned away or a deleted topic leaves no metric behind, neither on {@code /metrics} nor in JMX.
 */
class PartitionMetricsEndToEndTest {
    private static final String CLUSTER_ID = "UGFydGl0aW9uTWV0cmljcw";
    private static final long WAIT_MS = 30_000;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    private InProcessCluster cluster;

    @AfterEach
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void logSizeGrowsLagReturnsToZeroAndMetricsLeaveWithThePartition() throws Exception {
        cluster = InProcessCluster.start(dir, CLUSTER_ID, List.of(2, 3, 4), Map.of(
                "controller.quorum.election.timeout.ms", "300", "controller.quorum.fetch.timeout.ms", "600",
                ReplicationConfig.REPLICA_FETCH_BACKOFF_MS, "100"), Map.of("http.listener", "localhost:0"));
        Admin admin = cluster.admin();
        admin.createTopics(List.of(new NewTopic("sizes", Map.of(0, List.of(2, 3))))).all()
                .get(WAIT_MS, TimeUnit.MILLISECONDS);
        KafkaProducer<String, String> producer = cluster.closeLater(new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap(), ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new StringSerializer()));

        produce(producer, 100);
        awaitTrue(() -> gauge(2, "kafka_log_log_logendoffset", "sizes", 0) == 100, "leader's log end at 100");
        double firstSize = gauge(2, "kafka_log_log_size", "sizes", 0);
        assertTrue(firstSize > 100 * 10, "size " + firstSize);
        assertEquals(1, gauge(2, "kafka_log_log_numlogsegments", "sizes", 0));
        assertEquals(0, gauge(2, "kafka_log_log_logstartoffset", "sizes", 0));
        awaitTrue(() -> gauge(2, "kafka_cluster_partition_insyncreplicascount", "sizes", 0) == 2, "ISR of 2");
        assertEquals(2, gauge(2, "kafka_cluster_partition_replicascount", "sizes", 0));
        assertEquals(0, gauge(2, "kafka_cluster_partition_underreplicated", "sizes", 0));
        // Kafka publishes the partition gauges on every replica, 0 where the broker does not lead.
        assertEquals(0, gauge(3, "kafka_cluster_partition_replicascount", "sizes", 0));

        produce(producer, 100);
        awaitTrue(() -> gauge(2, "kafka_log_log_size", "sizes", 0) > firstSize, "the leader's log to grow");
        awaitTrue(() -> gauge(3, "kafka_log_log_logendoffset", "sizes", 0) == 200
                && gauge(3, "kafka_server_fetcherlagmetrics_consumerlag", "sizes", 0) == 0, "follower caught up");
        assertTrue(scrape(3).contains("clientId=\"ReplicaFetcherThread-0-2\""), "lag names the leader's fetcher");
        assertEquals(-1, gauge(2, "kafka_server_fetcherlagmetrics_consumerlag", "sizes", 0), "a leader has no lag");

        // JMX, under Kafka's names (one JVM: a name shows the first broker that published it).
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        assertEquals(200.0, ((Number) jmx.getAttribute(new ObjectName(
                "kafka.log:type=Log,name=LogEndOffset,topic=sizes,partition=0"), "Value")).doubleValue());
        assertTrue(((Number) jmx.getAttribute(new ObjectName(
                "kafka.log:type=Log,name=Size,topic=sizes,partition=0"), "Value")).doubleValue() > firstSize);
        assertEquals(0.0, ((Number) jmx.getAttribute(new ObjectName("kafka.server:type=FetcherLagMetrics,"
                + "name=ConsumerLag,clientId=ReplicaFetcherThread-0-2,topic=sizes,partition=0"), "Value"))
                .doubleValue());

        admin.alterPartitionReassignments(Map.of(new TopicPartition("sizes", 0),
                Optional.of(new NewPartitionReassignment(List.of(3, 4))))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> gauge(4, "kafka_log_log_logendoffset", "sizes", 0) == 200, "broker 4 to host the partition");
        // The topic's meters (BytesInPerSec...) stay until the topic goes, as in Kafka; the partition's do not.
        awaitTrue(() -> !hasPartitionSeries(2), "broker 2 to drop the moved partition's metrics");
        assertTrue(hasPartitionSeries(3) && hasPartitionSeries(4));

        admin.deleteTopics(List.of("sizes")).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> cluster.brokerIds().stream().noneMatch(id -> scrape(id).contains("topic=\"sizes\"")),
                "every broker to drop the deleted topic's metrics");
        for (String pattern : List.of("kafka.log:type=Log,", "kafka.cluster:type=Partition,",
                "kafka.server:type=FetcherLagMetrics,")) {
            assertEquals(Set.of(), jmx.queryNames(new ObjectName(pattern + "topic=sizes,*"), null));
        }
    }

    private static void produce(KafkaProducer<String, String> producer, int records) throws Exception {
        for (int i = 0; i < records; i++) {
            producer.send(new ProducerRecord<>("sizes", 0, "k" + i, "value-" + i));
        }
        producer.flush();
    }

    private boolean hasPartitionSeries(int broker) {
        return scrape(broker).lines().anyMatch(line -> line.contains("topic=\"sizes\"")
                && line.contains("partition=\"0\""));
    }

    /** The sample of a per-partition family on one broker, -1 when it has none. */
    private double gauge(int broker, String family, String topic, int partition) {
        String labelsTopic = "topic=\"" + topic + "\"";
        String labelsPartition = "partition=\"" + partition + "\"";
        for (String line : scrape(broker).split("\n")) {
            if (line.startsWith(family + "_by_") && line.contains(labelsTopic) && line.contains(labelsPartition)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return -1;
    }

    private String scrape(int broker) {
        int port = cluster.broker(broker).httpPort().orElseThrow();
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + port + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
