package io.kraft.server.security;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.TestWaits;
import io.kraft.broker.network.TestCertificates;
import io.kraft.broker.replica.ReplicationConfig;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.BootstrapMetadata;
import io.kraft.metadata.image.ScramFunctions;
import io.kraft.metadata.image.ScramMechanism;
import io.kraft.server.BrokerNode;
import io.kraft.server.ControllerNode;
import io.kraft.server.TestFaultHandler;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One controller and two brokers whose only Kafka listener is SASL_SSL: followers log in to their leaders with
 * SCRAM-SHA-512 (the credential from format's bootstrap records) and re-authenticate as their sessions end, like the
 * clients (KIP-368, connections.max.reauth.ms of 2 s), while a topic of replication factor 2 takes acks=all writes.
 */
class SaslReplicationTest {
    private static final String CLUSTER_ID = "U2FzbFJlcGxpY2F0aW9uMQ";
    private static final long WAIT_MS = TestWaits.WAIT_MS;
    private static final String SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";

    @TempDir
    Path dir;

    private final TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
            LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
    private final TestFaultHandler faults = new TestFaultHandler();
    private final List<BrokerNode> brokers = new ArrayList<>();
    private ControllerNode controller;

    @AfterEach
    void stop() {
        brokers.forEach(BrokerNode::close);
        if (controller != null) {
            controller.close();
        }
        faults.assertNone();
    }

    @Test
    void replicatesAndServesAGroupAcrossReauthenticationsOnSaslSslOnly() throws Exception {
        TestCertificates certs = TestCertificates.create(dir);
        BootstrapMetadata.write(dir.resolve("controller-1"), List.of(
                ScramFunctions.credentialForPassword("broker", ScramMechanism.SCRAM_SHA_512, "broker-secret", 4096)
                        .toRecord(),
                ScramFunctions.credentialForPassword("admin", ScramMechanism.SCRAM_SHA_512, "admin-secret", 4096)
                        .toRecord()));
        Map<String, String> properties = new HashMap<>(Map.of("controller.quorum.voters", "1@localhost:" + freePort(),
                "controller.quorum.election.timeout.ms", "300", "controller.quorum.fetch.timeout.ms", "600",
                ReplicationConfig.REPLICA_FETCH_BACKOFF_MS, "100"));
        controller = ControllerNode.start(1, CLUSTER_ID, dir.resolve("controller-1"), properties, topicConfigs, faults);
        properties.put("listener.security.protocol.map", "SASL_SSL:SASL_SSL,CONTROLLER:PLAINTEXT");
        properties.put("inter.broker.listener.name", "SASL_SSL");
        properties.put("sasl.enabled.mechanisms", "SCRAM-SHA-512");
        properties.put("sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512");
        properties.put("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config", SCRAM_MODULE
                + " required username=\"broker\" password=\"broker-secret\";");
        properties.put("connections.max.reauth.ms", "2000");
        properties.putAll(certs.brokerSslSettings());
        properties.put("offsets.topic.replication.factor", "2");
        properties.put("group.initial.rebalance.delay.ms", "0");
        for (int id : List.of(2, 3)) {
            Map<String, String> brokerProperties = new HashMap<>(properties);
            brokerProperties.put("log.dirs", dir.resolve("broker-" + id).resolve("logs").toString());
            BrokerNode broker = BrokerNode.start(id, CLUSTER_ID, dir.resolve("broker-" + id).resolve("metadata"),
                    "SASL_SSL://localhost:0", brokerProperties, topicConfigs, faults);
            brokers.add(broker);
            awaitTrue(broker::isBrokerUnfenced, "broker " + id + " to be unfenced");
        }
        Map<String, Object> client = clientConfig(certs);
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic("replicated", 1, (short) 2)
                    .configs(Map.of("min.insync.replicas", "2")))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
            awaitTrue(() -> isr(admin).size() == 2, "both replicas in sync");
            Map<String, Object> producerConfig = new HashMap<>(client);
            producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
            Map<String, Object> consumerConfig = new HashMap<>(client);
            consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, "reauth-group");
            consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
                    new StringSerializer());
                 KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig,
                         new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of("replicated"));
                List<String> received = new ArrayList<>();
                // Over about 9 s: several 2 s sessions of the producer, the consumer and the followers' connections.
                for (int round = 0; round < 30; round++) {
                    for (int i = 0; i < 10; i++) {
                        producer.send(new ProducerRecord<>("replicated", "r" + round + "-" + i)).get(WAIT_MS,
                                TimeUnit.MILLISECONDS);
                    }
                    long until = System.currentTimeMillis() + 300;
                    while (System.currentTimeMillis() < until) {
                        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(50))) {
                            received.add(record.value());
                        }
                    }
                    consumer.commitSync();
                }
                long deadline = System.currentTimeMillis() + WAIT_MS;
                while (received.size() < 300 && System.currentTimeMillis() < deadline) {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                        received.add(record.value());
                    }
                }
                assertEquals(300, received.size());
                assertEquals("r29-9", received.get(299));
                double reauthentications = metric(consumer.metrics(), "successful-reauthentication-total");
                assertTrue(reauthentications >= 3, "consumer re-authenticated " + reauthentications + " times");
                assertEquals(0.0, metric(consumer.metrics(), "failed-reauthentication-total"));
            }
            assertEquals(2, isr(admin).size(), "the follower stayed in sync across its re-authentications");
        }
    }

    private Map<String, Object> clientConfig(TestCertificates certs) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, String.join(",", brokers.stream()
                .map(b -> "localhost:" + b.listenerPort("SASL_SSL")).toList()));
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
        config.put(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512");
        config.put(SaslConfigs.SASL_JAAS_CONFIG, SCRAM_MODULE + " required username=\"admin\" password=\"admin-secret\";");
        config.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        config.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certs.trustStore().toString());
        config.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, TestCertificates.PASSWORD);
        config.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        config.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000");
        return config;
    }

    /** The sum of every metric of that name (one per client connection group). */
    private static double metric(Map<MetricName, ? extends Metric> metrics, String name) {
        return metrics.entrySet().stream().filter(e -> e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }

    private static List<Integer> isr(Admin admin) {
        try {
            return admin.describeTopics(List.of("replicated")).allTopicNames().get(WAIT_MS, TimeUnit.MILLISECONDS)
                    .get("replicated").partitions().get(0).isr().stream().map(n -> n.id()).toList();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
