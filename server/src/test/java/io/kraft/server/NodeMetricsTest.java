package io.kraft.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node's metrics as operators read them: after a kafka-clients producer and consumer, the Prometheus endpoint and
 * JMX (Kafka's object names and attributes) count exactly what was produced, requests have times, the replica
 * manager and controller gauges describe the node, and the health checks answer.
 */
class NodeMetricsTest {
    private static final int RECORDS = 500;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Path DASHBOARD = Path.of("..", "cli", "src", "main", "dist", "grafana", "kraft-dashboard.json");

    @TempDir
    Path dir;

    @Test
    void prometheusAndJmxCountWhatClientsDid() throws Exception {
        try (TestNode node = new TestNode(dir, Map.of("http.listener", "localhost:0")).start()) {
            node.createTopic("orders", 3, Map.of());
            produce(node, RECORDS);
            consume(node, RECORDS);
            int httpPort = node.node().httpPort().orElseThrow();

            assertEquals(200, get(httpPort, "/health/live").statusCode());
            HttpResponse<String> ready = get(httpPort, "/health/ready");
            assertEquals(200, ready.statusCode(), ready.body());

            HttpResponse<String> scrape = get(httpPort, "/metrics");
            assertEquals(200, scrape.statusCode());
            String text = scrape.body();
            assertEquals(RECORDS, value(text, "kafka_server_brokertopicmetrics_messagesin_total"), text);
            assertEquals(RECORDS, value(text, "kafka_server_brokertopicmetrics_messagesin_by_topic_total{topic=\"orders\"}"));
            assertTrue(value(text, "kafka_server_brokertopicmetrics_bytesin_total") > RECORDS * 10);
            assertTrue(value(text, "kafka_server_brokertopicmetrics_bytesout_by_topic_total{topic=\"orders\"}") > 0);
            // Per version as in Kafka, and a consumer's Fetch is FetchConsumer.
            assertTrue(sum(text, "kafka_network_requestmetrics_requests_by_request_by_version_total{request=\"Produce\","
                    + "version=\"") > 0, text);
            assertTrue(value(text, "kafka_network_requestmetrics_totaltime_by_request_ms_count{request=\"FetchConsumer\"}")
                    > 0);
            assertEquals(3, value(text, "kafka_server_replicamanager_partitioncount"));
            assertEquals(1, value(text, "kafka_controller_kafkacontroller_activecontrollercount"));
            assertEquals(0, value(text, "kafka_controller_kafkacontroller_offlinepartitionscount"));
            assertEquals(1, value(text, "kafka_server_raft_metrics_current_leader"));
            assertTrue(value(text, "kafka_server_raft_metrics_log_end_offset") > 0, "the metadata log has records");
            assertTrue(value(text, "kafka_server_raft_metrics_commit_latency_max") > 0, "the leader committed appends");
            double snapshotAge = value(text, "kafka_server_snapshot_emitter_metrics_latest_snapshot_generated_age_ms");
            assertTrue(snapshotAge == -1 || snapshotAge >= 0, "snapshot age " + snapshotAge);
            double idle = value(text, "kafka_server_kafkarequesthandlerpool_requesthandleravgidlepercent");
            assertTrue(idle >= 0 && idle <= 1, "idle share " + idle);
            double networkIdle = value(text, "kafka_network_socketserver_networkprocessoravgidlepercent");
            assertTrue(networkIdle >= 0 && networkIdle <= 1, "network idle share " + networkIdle);
            // No group has committed here: the coordinator's gauges exist and count none.
            assertEquals(0, value(text, "kafka_server_group_coordinator_metrics_group_count_by_protocol{protocol=\"classic\"}"));
            assertEquals(0, value(text, "kafka_coordinator_group_groupmetadatamanager_numoffsets"));
            assertTrue(text.contains("jvm_memory_used_bytes"), "JVM metrics");

            assertDashboardMetricsExist(text);

            MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            assertEquals((long) RECORDS, jmx.getAttribute(new ObjectName(
                    "kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=orders"), "Count"));
            assertEquals("messages", jmx.getAttribute(new ObjectName(
                    "kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec"), "EventType"));
            ObjectName produceTime = new ObjectName("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce");
            assertTrue((Long) jmx.getAttribute(produceTime, "Count") > 0);
            double p99 = (Double) jmx.getAttribute(produceTime, "99thPercentile");
            double max = (Double) jmx.getAttribute(produceTime, "Max");
            assertTrue(p99 > 0 && p99 <= max, p99 + " / " + max);
            assertEquals(3L, jmx.getAttribute(new ObjectName("kafka.server:type=ReplicaManager,name=LeaderCount"),
                    "Value"));
            assertEquals(0L, jmx.getAttribute(new ObjectName(
                    "kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions"), "Value"));

            // A group that committed offset 0 everywhere lags by every record; the coordinator counts every 5 s.
            Map<TopicPartition, OffsetAndMetadata> atStart = new HashMap<>();
            for (int partition = 0; partition < 3; partition++) {
                atStart.put(new TopicPartition("orders", partition), new OffsetAndMetadata(0));
            }
            node.admin().alterConsumerGroupOffsets("lagging", atStart).all()
                    .get(TestNode.WAIT_MS, TimeUnit.MILLISECONDS);
            Pattern lagSum = Pattern.compile(
                    "(?m)^kafka_server_consumergrouplag_lagsum_by_group\\{group=\"lagging\"} (\\S+)$");
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                Matcher sample = lagSum.matcher(get(httpPort, "/metrics").body());
                return sample.find() && Double.parseDouble(sample.group(1)) == RECORDS;
            });
            String withGroup = get(httpPort, "/metrics").body();
            assertEquals(1, value(withGroup, "kafka_server_group_coordinator_metrics_group_count_by_protocol"
                    + "{protocol=\"classic\"}"));
            assertEquals(3, value(withGroup, "kafka_coordinator_group_groupmetadatamanager_numoffsets"));

            node.admin().deleteTopics(List.of("orders")).all().get(TestNode.WAIT_MS, TimeUnit.MILLISECONDS);
            await().atMost(Duration.ofSeconds(30)).until(() ->
                    !get(httpPort, "/metrics").body().contains("topic=\"orders\""));
        }
    }

    /** Every series the shipped Grafana dashboard queries is among the node's samples. */
    private static void assertDashboardMetricsExist(String scrape) throws Exception {
        String dashboard = Files.readString(DASHBOARD);
        Matcher series = Pattern.compile("\\b((?:kafka|jvm)_[a-z0-9_]+)").matcher(dashboard);
        Set<String> named = new TreeSet<>();
        while (series.find()) {
            named.add(series.group(1));
        }
        assertTrue(named.size() > 20, "series in the dashboard: " + named);
        Set<String> missing = new TreeSet<>();
        for (String name : named) {
            if (!Pattern.compile("(?m)^" + Pattern.quote(name) + "[ {]").matcher(scrape).find()) {
                missing.add(name);
            }
        }
        assertEquals(Set.of(), missing, "the dashboard names series the node does not serve");
    }

    private static void produce(TestNode node, int records) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>("orders", i % 3, "k" + i, "value-" + i));
            }
            producer.flush();
        }
    }

    private static void consume(TestNode node, int records) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(List.of(new TopicPartition("orders", 0), new TopicPartition("orders", 1),
                    new TopicPartition("orders", 2)));
            consumer.seekToBeginning(consumer.assignment());
            int read = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (read < records && System.nanoTime() < deadline) {
                ConsumerRecords<String, String> batch = consumer.poll(Duration.ofMillis(200));
                read += batch.count();
            }
            assertEquals(records, read);
        }
    }

    private static HttpResponse<String> get(int port, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The value of the sample whose name and labels are exactly {@code sample}. */
    /** The sum of every sample whose line starts with {@code prefix} (e.g. a family's series of one label value). */
    private static double sum(String text, String prefix) {
        return text.lines().filter(line -> line.startsWith(prefix))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    private static double value(String text, String sample) {
        Matcher line = Pattern.compile("(?m)^" + Pattern.quote(sample) + " (\\S+)$").matcher(text);
        assertTrue(line.find(), () -> "no sample " + sample + " among\n" + text.lines()
                .filter(l -> l.startsWith(sample.substring(0, Math.min(sample.length(), 30)))).limit(20).toList());
        return Double.parseDouble(line.group(1));
    }
}
