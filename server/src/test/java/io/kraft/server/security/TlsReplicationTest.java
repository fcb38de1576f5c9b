package io.kraft.server.security;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.kraft.broker.network.TestCertificates;
import io.kraft.broker.replica.ReplicationConfig;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.server.BrokerNode;
import io.kraft.server.ControllerNode;
import io.kraft.server.TestFaultHandler;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three dedicated brokers whose inter-broker listener is SSL (PEM key material, client certificates required) while
 * clients use PLAINTEXT: followers replicate over TLS (acks=all with min.insync.replicas=3 needs every follower's
 * fetch), and a new leader serves what they copied.
 */
class TlsReplicationTest {
    private static final String CLUSTER_ID = "VGxzUmVwbGljYXRpb24xMQ";
    private static final long WAIT_MS = 30_000;

    @TempDir
    Path dir;

    private final TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
            LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
    private final Map<Integer, BrokerNode> brokers = new HashMap<>();
    private final TestFaultHandler faults = new TestFaultHandler();
    private ControllerNode controller;

    @AfterEach
    void stop() {
        brokers.values().forEach(BrokerNode::close);
        if (controller != null) {
            controller.close();
        }
        faults.assertNone();
    }

    @Test
    void followersReplicateOverTls() throws Exception {
        TestCertificates certs = TestCertificates.create(dir);
        Map<String, String> properties = new HashMap<>(Map.of("controller.quorum.voters", "1@localhost:" + freePort(),
                "controller.quorum.election.timeout.ms", "300", "controller.quorum.fetch.timeout.ms", "600",
                ReplicationConfig.REPLICA_FETCH_BACKOFF_MS, "100"));
        controller = ControllerNode.start(1, CLUSTER_ID, dir.resolve("controller-1"), properties, topicConfigs, faults);
        properties.put("inter.broker.listener.name", "SSL");
        // PEM files here (the other tests use PKCS12): the follower's client side reads them too.
        properties.put("ssl.keystore.type", "PEM");
        properties.put("ssl.keystore.location", certs.brokerPem(dir.resolve("broker.pem")).toString());
        // Brokers verify each other: the SSL listener requires a certificate its trust store knows.
        properties.put("ssl.truststore.type", "PEM");
        properties.put("ssl.truststore.location", certs.trustPem(dir.resolve("trust.pem")).toString());
        properties.put("listener.name.ssl.ssl.client.auth", "required");
        for (int id : List.of(2, 3, 4)) {
            Map<String, String> brokerProperties = new HashMap<>(properties);
            brokerProperties.put("log.dirs", dir.resolve("broker-" + id).resolve("logs").toString());
            BrokerNode broker = BrokerNode.start(id, CLUSTER_ID, dir.resolve("broker-" + id).resolve("metadata"),
                    "PLAINTEXT://localhost:0,SSL://localhost:0", brokerProperties, topicConfigs, faults);
            brokers.put(id, broker);
            awaitTrue(broker::isBrokerUnfenced, "broker " + id + " to be unfenced");
        }
        String bootstrap = String.join(",", brokers.values().stream()
                .map(b -> "localhost:" + b.listenerPort("PLAINTEXT")).toList());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000"))) {
            admin.createTopics(List.of(new NewTopic("replicated", 1, (short) 3)
                    .configs(Map.of("min.insync.replicas", "3")))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
            awaitTrue(() -> isr(admin).size() == 3, "all three replicas in sync");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000", ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "20000"),
                    new StringSerializer(),
                    new StringSerializer())) {
                for (int i = 0; i < 200; i++) {
                    producer.send(new ProducerRecord<>("replicated", "k" + i, "value-" + i)).get(WAIT_MS,
                            TimeUnit.MILLISECONDS);
                }
            }
            int oldLeader = leader(admin);
            brokers.remove(oldLeader).close();
            awaitTrue(() -> {
                int now = leader(admin);
                return now != oldLeader && now >= 0;
            }, "a new leader");
            assertNotEquals(oldLeader, leader(admin));
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", brokers.values().stream()
                            .map(b -> "localhost:" + b.listenerPort("PLAINTEXT")).toList())),
                    new StringDeserializer(), new StringDeserializer())) {
                TopicPartition tp = new TopicPartition("replicated", 0);
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                List<String> values = new ArrayList<>();
                long deadline = System.currentTimeMillis() + WAIT_MS;
                while (values.size() < 200 && System.currentTimeMillis() < deadline) {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                        values.add(record.value());
                    }
                }
                assertEquals(200, values.size());
                assertEquals("value-199", values.get(199));
            }
        }
    }

    /** The topic as the broker asked sees it, or null while it does not know it yet (its metadata lags). */
    private static TopicDescription describe(Admin admin) {
        try {
            return admin.describeTopics(List.of("replicated")).allTopicNames().get(WAIT_MS, TimeUnit.MILLISECONDS)
                    .get("replicated");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RetriableException) {
                return null; // UNKNOWN_TOPIC_OR_PARTITION right after createTopics, or a broker just stopped
            }
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Integer> isr(Admin admin) {
        TopicDescription topic = describe(admin);
        return topic == null ? List.of() : topic.partitions().get(0).isr().stream().map(n -> n.id()).toList();
    }

    private static int leader(Admin admin) {
        TopicDescription topic = describe(admin);
        var leader = topic == null ? null : topic.partitions().get(0).leader();
        return leader == null ? -1 : leader.id();
    }
}
