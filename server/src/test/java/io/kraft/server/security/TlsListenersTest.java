package io.kraft.server.security;

import static io.kraft.broker.TestWaits.freePort;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.TestWaits;
import io.kraft.broker.network.TestCertificates;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.server.CombinedNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One combined node with three listeners, PLAINTEXT, SSL (server-authenticated) and MTLS (SSL with
 * {@code ssl.client.auth=required} through its per-listener key), used by real Kafka clients.
 */
class TlsListenersTest {
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qg";
    private static final long WAIT_MS = TestWaits.WAIT_MS;

    @TempDir
    static Path dir;
    static TestCertificates certs;
    static CombinedNode node;

    @BeforeAll
    static void start() throws Exception {
        certs = TestCertificates.create(dir);
        Map<String, String> props = new HashMap<>();
        props.put("controller.quorum.voters", "1@localhost:" + freePort());
        props.put("log.dirs", dir.resolve("logs").toString());
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,SSL:SSL,MTLS:SSL,CONTROLLER:PLAINTEXT");
        props.putAll(certs.brokerSslSettings());
        props.put("listener.name.mtls.ssl.client.auth", "required");
        // Key material given inline for a listener this node does not have: read by nothing, shown to no one.
        props.put("listener.name.other.ssl.keystore.key", "-----BEGIN PRIVATE KEY-----secret-----END PRIVATE KEY-----");
        props.put("offsets.topic.replication.factor", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parseOwn(props, ConfigSource.STATIC_BROKER_CONFIG)));
        node = CombinedNode.start(1, CLUSTER_ID, dir.resolve("metadata"),
                "PLAINTEXT://localhost:0,SSL://localhost:0,MTLS://127.0.0.1:0", props, topicConfigs);
        node.ready().get(WAIT_MS, TimeUnit.MILLISECONDS);
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    private static Map<String, Object> clientConfig(String listener, boolean withKeyStore) {
        Map<String, Object> config = new HashMap<>();
        String host = listener.equals("MTLS") ? "127.0.0.1" : "localhost";
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, host + ":" + node.listenerPort(listener));
        if (!listener.equals("PLAINTEXT")) {
            config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
            config.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
            config.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certs.trustStore().toString());
            config.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, TestCertificates.PASSWORD);
        }
        if (withKeyStore) {
            config.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12");
            config.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, certs.clientKeyStore().toString());
            config.put(SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, TestCertificates.PASSWORD);
        }
        config.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        config.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
        return config;
    }

    private static Admin admin(String listener, boolean withKeyStore) {
        return Admin.create(clientConfig(listener, withKeyStore));
    }

    private static KafkaProducer<byte[], byte[]> producer(String listener, boolean withKeyStore) {
        Map<String, Object> config = clientConfig(listener, withKeyStore);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String listener, boolean withKeyStore, String group) {
        Map<String, Object> config = clientConfig(listener, withKeyStore);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, "65536");
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static void createTopic(Admin admin, String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(WAIT_MS,
                TimeUnit.MILLISECONDS);
    }

    /** Produces {@code count} records of {@code size} bytes each, with distinct contents, and returns them. */
    private static List<byte[]> produce(KafkaProducer<byte[], byte[]> producer, String topic, int count, int size)
            throws Exception {
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] value = new byte[size];
            for (int b = 0; b < size; b++) {
                value[b] = (byte) (i * 31 + b);
            }
            values.add(value);
            producer.send(new ProducerRecord<>(topic, 0, null, value));
        }
        producer.flush();
        return values;
    }

    /** Consumes partition 0 of {@code topic} from its start until {@code count} records came, in a group. */
    private static List<byte[]> consume(KafkaConsumer<byte[], byte[]> consumer, String topic, int count) {
        consumer.subscribe(List.of(topic));
        List<byte[]> values = new ArrayList<>();
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (values.size() < count && System.currentTimeMillis() < deadline) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                values.add(record.value());
            }
        }
        consumer.commitSync();
        return values;
    }

    @Test
    void producesConsumesAndAdministersOverTls() throws Exception {
        try (Admin admin = admin("SSL", false);
             KafkaProducer<byte[], byte[]> producer = producer("SSL", false);
             KafkaConsumer<byte[], byte[]> consumer = consumer("SSL", false, "tls-group")) {
            createTopic(admin, "tls-topic", 1);
            assertTrue(admin.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS).contains("tls-topic"));
            // Records larger than one TLS record (16 KiB) in fetches of many batches: the copied file bytes.
            List<byte[]> sent = produce(producer, "tls-topic", 300, 3000);
            List<byte[]> received = consume(consumer, "tls-topic", sent.size());
            assertEquals(sent.size(), received.size());
            for (int i = 0; i < sent.size(); i++) {
                assertArrayEquals(sent.get(i), received.get(i), "record " + i);
            }
            assertEquals(300L, admin.listConsumerGroupOffsets("tls-group").partitionsToOffsetAndMetadata()
                    .get(WAIT_MS, TimeUnit.MILLISECONDS).get(new TopicPartition("tls-topic", 0)).offset());
        }
    }

    @Test
    void eachListenerAnswersWithItsOwnEndpoints() throws Exception {
        try (Admin plain = admin("PLAINTEXT", false)) {
            createTopic(plain, "endpoints-topic", 1);
        }
        for (String listener : List.of("PLAINTEXT", "SSL", "MTLS")) {
            boolean keyStore = listener.equals("MTLS");
            String group = "endpoints-group-" + listener;
            try (Admin admin = admin(listener, keyStore);
                 KafkaConsumer<byte[], byte[]> consumer = consumer(listener, keyStore, group)) {
                Collection<Node> nodes = admin.describeCluster().nodes().get(WAIT_MS, TimeUnit.MILLISECONDS);
                assertEquals(List.of(node.listenerPort(listener)), nodes.stream().map(Node::port).toList(), listener);
                // The commit goes to the coordinator FindCoordinator named on this listener.
                consumer.commitSync(Map.of(new TopicPartition("endpoints-topic", 0), new OffsetAndMetadata(0)));
                Node coordinator = admin.describeConsumerGroups(List.of(group)).all()
                        .get(WAIT_MS, TimeUnit.MILLISECONDS).get(group).coordinator();
                assertEquals(node.listenerPort(listener), coordinator.port(), listener);
                // Metadata itself (the consumer asks it for the partition's leader).
                List<PartitionInfo> partitions = consumer.partitionsFor("endpoints-topic", Duration.ofMillis(WAIT_MS));
                assertEquals(node.listenerPort(listener), partitions.get(0).leader().port(), listener);
                assertEquals(listener.equals("MTLS") ? "127.0.0.1" : "localhost", partitions.get(0).leader().host());
            }
        }
    }

    @Test
    void describeConfigsNeverShowsKeyMaterial() throws Exception {
        try (Admin admin = admin("SSL", false)) {
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
            Config config = admin.describeConfigs(List.of(broker)).all().get(WAIT_MS, TimeUnit.MILLISECONDS)
                    .get(broker);
            for (String key : List.of("ssl.keystore.password", "ssl.truststore.password",
                    "listener.name.other.ssl.keystore.key")) {
                ConfigEntry entry = config.get(key);
                assertTrue(entry != null && entry.isSensitive() && entry.value() == null, key + ": " + entry);
            }
            assertEquals("required", config.get("listener.name.mtls.ssl.client.auth").value());
        }
    }

    @Test
    void aListenerIsBoundToItsOwnAddressOnly() throws Exception {
        // MTLS is bound to 127.0.0.1: another loopback address of this machine does not reach it.
        try (Socket reached = new Socket("127.0.0.1", node.listenerPort("MTLS"))) {
            assertTrue(reached.isConnected());
        }
        assertThrows(java.net.ConnectException.class, () -> new Socket("127.0.0.2", node.listenerPort("MTLS")).close());
    }

    @Test
    void requiredClientAuthAdmitsOnlyClientsWithATrustedCertificate() throws Exception {
        try (Admin admin = admin("MTLS", true);
             KafkaProducer<byte[], byte[]> producer = producer("MTLS", true);
             KafkaConsumer<byte[], byte[]> consumer = consumer("MTLS", true, "mtls-group")) {
            createTopic(admin, "mtls-topic", 1);
            List<byte[]> sent = produce(producer, "mtls-topic", 20, 100);
            assertEquals(sent.size(), consume(consumer, "mtls-topic", sent.size()).size());
        }
        try (Admin anonymous = admin("MTLS", false)) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> anonymous.describeCluster().nodes().get(WAIT_MS, TimeUnit.MILLISECONDS));
            assertInstanceOf(SslAuthenticationException.class, e.getCause(), e.getCause().toString());
        }
    }

    @Test
    void aClientSpeakingTheWrongProtocolIsClosedWithoutHarmingOthers() throws Exception {
        try (Admin admin = admin("SSL", false);
             KafkaProducer<byte[], byte[]> tlsProducer = producer("SSL", false);
             KafkaProducer<byte[], byte[]> plainProducer = producer("PLAINTEXT", false)) {
            createTopic(admin, "mixed-topic", 1);
            produce(tlsProducer, "mixed-topic", 5, 10);
            produce(plainProducer, "mixed-topic", 5, 10);
            // Plaintext Kafka bytes on the TLS port: an ApiVersions v3 request frame.
            try (Socket socket = new Socket("localhost", node.listenerPort("SSL"))) {
                socket.setSoTimeout((int) WAIT_MS);
                OutputStream out = socket.getOutputStream();
                out.write(new byte[] {0, 0, 0, 14, 0, 18, 0, 3, 0, 0, 0, 1, 0, 4, 't', 'e', 's', 't'});
                out.flush();
                assertClosed(socket.getInputStream());
            }
            // A TLS handshake on the plaintext port fails on the client's side; the broker closes the connection.
            try (Socket socket = new Socket("localhost", node.listenerPort("PLAINTEXT"))) {
                SSLSocket tls = (SSLSocket) trustingContext().getSocketFactory().createSocket(socket, "localhost",
                        node.listenerPort("PLAINTEXT"), true);
                tls.setSoTimeout((int) WAIT_MS);
                assertThrows(IOException.class, tls::startHandshake);
            }
            // The connections already open carry on.
            produce(tlsProducer, "mixed-topic", 5, 10);
            produce(plainProducer, "mixed-topic", 5, 10);
            assertEquals(20L, admin.listOffsets(Map.of(new TopicPartition("mixed-topic", 0),
                            org.apache.kafka.clients.admin.OffsetSpec.latest())).all()
                    .get(WAIT_MS, TimeUnit.MILLISECONDS).get(new TopicPartition("mixed-topic", 0)).offset());
        }
    }

    private static void assertClosed(InputStream in) throws IOException {
        try {
            int read;
            do {
                read = in.read();
            } while (read >= 0);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the broker kept the connection open", e);
        } catch (IOException e) {
            // A reset is a close too.
        }
    }

    private static SSLContext trustingContext() throws Exception {
        java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
        try (InputStream in = java.nio.file.Files.newInputStream(certs.trustStore())) {
            trust.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
