package io.kraft.server.bench;

import io.kraft.broker.network.TestCertificates;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.BootstrapMetadata;
import io.kraft.metadata.image.ScramFunctions;
import io.kraft.metadata.image.ScramMechanism;
import io.kraft.server.CombinedNode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The cost of TLS and SASL against plaintext on one combined node with a PLAINTEXT, an SSL and a SASL_SSL
 * (SCRAM-SHA-512, its user from bootstrap records) listener: kafka-clients produce
 * {@code bench.records} records of 1 KiB (acks=1) to 6 partitions and then consume them, over each listener in turn
 * ({@code bench.rounds} times, alternating; the first round warms the JIT up, TLS's AES-GCM most of all, and is
 * marked so). It prints MB/s and the broker's CPU time per MB: the CPU of every thread
 * in this JVM except the clients' (the benchmark's own thread and Kafka's client threads), so the figure holds the
 * broker's encryption, decryption and (on TLS) the copies of fetched records, and not the clients' TLS work.
 *
 * <p>{@code mvn -B -q -pl server -am -Ptls-bench test-compile exec:exec [-Dbench.records=N] [-Dbench.rounds=N]}
 *
 * <p>With {@code -Dbench.serveSeconds=N} it runs no clients: it writes a client properties file per listener into its
 * directory, prints the listeners' ports and those files, and serves for N seconds, for Kafka's own perf tools.
 */
public final class TlsBenchmark {
    private static final String CLUSTER_ID = "VGxzQmVuY2htYXJrQ2x1c3Rl";
    private static final int PARTITIONS = 6;
    private static final int RECORD_BYTES = 1024;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final List<String> LISTENERS = List.of("PLAINTEXT", "SSL", "SASL_SSL");
    private static final String SCRAM_JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"bench\" password=\"bench-secret\";";

    private TlsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        // The clients log their whole configuration at INFO for each one created; only the results matter here.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        int records = Integer.getInteger("bench.records", 300_000);
        int rounds = Integer.getInteger("bench.rounds", 3);
        Path dir = Files.createTempDirectory("kraft-tls-bench");
        TestCertificates certs = TestCertificates.create(dir);
        CombinedNode node = start(dir, certs);
        int serveSeconds = Integer.getInteger("bench.serveSeconds", 0);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + node.listenerPort("PLAINTEXT")))) {
            if (serveSeconds > 0) {
                serve(node, certs, dir, serveSeconds);
                return;
            }
            System.out.printf("%d records of %d B, acks=1, %d partitions, %d round(s); broker CPU excludes the"
                    + " clients' threads%n", records, RECORD_BYTES, PARTITIONS, rounds);
            System.out.printf("%-11s %-9s %-7s %10s %16s%n", "round", "listener", "phase", "MB/s", "broker CPU ms/MB");
            for (int round = 0; round < rounds; round++) {
                for (String listener : LISTENERS) {
                    String topic = "bench-" + listener + "-" + round;
                    admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all()
                            .get(60, TimeUnit.SECONDS);
                    Map<String, Object> client = clientConfig(node, listener, certs);
                    String label = round == 0 ? "0 (warm-up)" : String.valueOf(round);
                    measure(label, listener, "produce", records, () -> produce(client, topic, records));
                    measure(label, listener, "consume", records, () -> consume(client, topic, records));
                }
            }
        } finally {
            node.close();
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private interface Phase {
        void run() throws Exception;
    }

    private static void measure(String round, String listener, String phase, int records, Phase work)
            throws Exception {
        long cpuBefore = brokerCpuNanos();
        long start = System.nanoTime();
        work.run();
        long wallNanos = System.nanoTime() - start;
        long cpuNanos = brokerCpuNanos() - cpuBefore;
        double mb = (double) records * RECORD_BYTES / (1 << 20);
        System.out.printf("%-11s %-9s %-7s %10.1f %16.2f%n", round, listener, phase, mb / (wallNanos / 1e9),
                cpuNanos / 1e6 / mb);
    }

    /** CPU time of every live thread but the clients': this one and kafka-clients' own threads. */
    private static long brokerCpuNanos() {
        long total = 0;
        long self = Thread.currentThread().getId();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info == null || info.getThreadId() == self || info.getThreadName().startsWith("kafka-")) {
                continue;
            }
            long cpu = THREADS.getThreadCpuTime(info.getThreadId());
            total += Math.max(0, cpu);
        }
        return total;
    }

    private static void produce(Map<String, Object> client, String topic, int records) throws Exception {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ProducerConfig.ACKS_CONFIG, "1");
        config.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, "65536");
        byte[] value = new byte[RECORD_BYTES];
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < records; i++) {
                value[i % RECORD_BYTES] = (byte) i;
                producer.send(new ProducerRecord<>(topic, i % PARTITIONS, null, value));
            }
            producer.flush();
        }
    }

    private static void consume(Map<String, Object> client, String topic, int records) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(topic, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            int received = 0;
            while (received < records) {
                for (ConsumerRecord<byte[], byte[]> ignored : consumer.poll(Duration.ofMillis(500))) {
                    received++;
                }
            }
        }
    }

    private static Map<String, Object> clientConfig(CombinedNode node, String listener, TestCertificates certs) {
        Map<String, Object> config = new HashMap<>();
        config.put("bootstrap.servers", "localhost:" + node.listenerPort(listener));
        if (listener.equals("SASL_SSL")) {
            config.put("sasl.mechanism", "SCRAM-SHA-512");
            config.put("sasl.jaas.config", SCRAM_JAAS);
        }
        if (!listener.equals("PLAINTEXT")) {
            config.put("security.protocol", listener);
            config.put("ssl.truststore.type", "PKCS12");
            config.put("ssl.truststore.location", certs.trustStore().toString());
            config.put("ssl.truststore.password", TestCertificates.PASSWORD);
        }
        return config;
    }

    private static CombinedNode start(Path dir, TestCertificates certs) throws Exception {
        BootstrapMetadata.write(dir.resolve("metadata"), List.of(ScramFunctions.credentialForPassword("bench",
                ScramMechanism.SCRAM_SHA_512, "bench-secret", 4096).toRecord()));
        Map<String, String> props = new HashMap<>();
        props.put("controller.quorum.voters", "1@localhost:" + freePort());
        props.put("sasl.enabled.mechanisms", "SCRAM-SHA-512");
        props.put("log.dirs", dir.resolve("logs").toString());
        props.put("ssl.keystore.type", "PKCS12");
        props.put("ssl.keystore.location", certs.brokerKeyStore().toString());
        props.put("ssl.keystore.password", TestCertificates.PASSWORD);
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parseOwn(props, ConfigSource.STATIC_BROKER_CONFIG)));
        CombinedNode node = CombinedNode.start(1, CLUSTER_ID, dir.resolve("metadata"),
                "PLAINTEXT://localhost:0,SSL://localhost:0,SASL_SSL://localhost:0", props, topicConfigs);
        node.ready().get(60, TimeUnit.SECONDS);
        return node;
    }

    /** Serves for Kafka's own tools: one client properties file per listener, then waits. */
    private static void serve(CombinedNode node, TestCertificates certs, Path dir, int seconds) throws Exception {
        for (String listener : LISTENERS) {
            Path file = dir.resolve(listener.toLowerCase(java.util.Locale.ROOT) + ".properties");
            StringBuilder text = new StringBuilder();
            clientConfig(node, listener, certs).forEach((key, value) -> text.append(key).append('=').append(value)
                    .append('\n'));
            Files.writeString(file, text);
            System.out.println(listener + " localhost:" + node.listenerPort(listener) + " " + file);
        }
        System.out.flush();
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
