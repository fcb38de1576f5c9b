package io.kraft.server.bench;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.BootstrapMetadata;
import io.kraft.metadata.controller.ClusterFeatures;
import io.kraft.server.CombinedNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Committed transactions per second of kafka-clients transactional producers against 1 or 3 combined nodes (RF = the
 * node count), each producer committing transactions of {@code bench.recordsPerTxn} 100-byte records spread over 6
 * partitions, with 1 and with 16 producers, for {@code bench.seconds} each; prints the rate, the p50/p99 time of
 * {@code commitTransaction()}, and the metadata records each transaction cost the controller's log (the coordinator's
 * state lives there, so that log bounds the rate). The cluster is formatted at {@code bench.txnVersion} (the
 * {@code transaction.version} feature, 2 as a new cluster's default, or 1).
 *
 * <p>{@code mvn -B -q -pl server -am -Ptxn-bench test-compile exec:exec [-Dbench.nodes=3] [-Dbench.seconds=20]
 * [-Dbench.txnVersion=1]}
 */
public final class TransactionBenchmark {
    private static final String CLUSTER_ID = "VHhuQmVuY2htYXJrQ2x1c3Rl";
    private static final int PARTITIONS = 6;

    private TransactionBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int nodeCount = Integer.getInteger("bench.nodes", 1);
        int seconds = Integer.getInteger("bench.seconds", 15);
        int recordsPerTxn = Integer.getInteger("bench.recordsPerTxn", 6);
        int txnVersion = Integer.getInteger("bench.txnVersion", 2);
        Path dir = Files.createTempDirectory("kraft-txn-bench");
        List<CombinedNode> nodes = start(dir, nodeCount, txnVersion);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(nodes)))) {
            admin.createTopics(List.of(new NewTopic("bench", PARTITIONS, (short) nodeCount))).all()
                    .get(60, TimeUnit.SECONDS);
            System.out.printf("%d node(s), RF %d, transaction.version %d, %d records of 100 B per transaction over %d"
                    + " partitions, %d s per run%n", nodeCount, nodeCount, txnVersion, recordsPerTxn, PARTITIONS, seconds);
            for (int producers : new int[] {1, 16}) {
                run(nodes, producers, seconds, recordsPerTxn);
            }
        } finally {
            nodes.stream().map(n -> CompletableFuture.runAsync(n::close)).toList().forEach(CompletableFuture::join);
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void run(List<CombinedNode> nodes, int producers, int seconds, int recordsPerTxn)
            throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<List<Long>> latencies = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        byte[] value = new byte[100];
        long metadataBefore = nodes.get(0).metadataImage().offset();
        for (int i = 0; i < producers; i++) {
            List<Long> mine = new ArrayList<>();
            latencies.add(mine);
            String id = "bench-" + producers + "-" + i;
            Thread thread = new Thread(() -> {
                try (KafkaProducer<byte[], byte[]> producer = producer(nodes, id)) {
                    producer.initTransactions();
                    int partition = 0;
                    while (!stop.get()) {
                        producer.beginTransaction();
                        for (int r = 0; r < recordsPerTxn; r++) {
                            producer.send(new ProducerRecord<>("bench", partition++ % PARTITIONS, null, value));
                        }
                        long startNanos = System.nanoTime();
                        producer.commitTransaction();
                        mine.add(System.nanoTime() - startNanos);
                    }
                }
            }, "txn-bench-" + i);
            threads.add(thread);
        }
        long startNanos = System.nanoTime();
        threads.forEach(Thread::start);
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        stop.set(true);
        for (Thread thread : threads) {
            thread.join();
        }
        double elapsedS = (System.nanoTime() - startNanos) / 1e9;
        List<Long> all = latencies.stream().flatMap(List::stream).sorted().collect(Collectors.toList());
        long metadataRecords = nodes.get(0).metadataImage().offset() - metadataBefore;
        System.out.printf("%2d producer(s): %7.1f committed transactions/s, commit p50 %5.1f ms p99 %6.1f ms, "
                        + "%.2f metadata records per transaction (incl. init)%n", producers, all.size() / elapsedS,
                percentileMs(all, 0.50), percentileMs(all, 0.99), all.isEmpty() ? 0.0
                        : (double) metadataRecords / all.size());
    }

    private static double percentileMs(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * p))) / 1e6;
    }

    private static KafkaProducer<byte[], byte[]> producer(List<CombinedNode> nodes, String transactionalId) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(nodes));
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static String bootstrap(List<CombinedNode> nodes) {
        return nodes.stream().map(n -> "localhost:" + n.clientPort()).collect(Collectors.joining(","));
    }

    private static List<CombinedNode> start(Path dir, int count, int txnVersion) throws Exception {
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
        StringBuilder voters = new StringBuilder();
        for (int id = 1; id <= count; id++) {
            voters.append(id == 1 ? "" : ",").append(id).append("@localhost:").append(freePort());
        }
        List<CombinedNode> nodes = new ArrayList<>();
        for (int id = 1; id <= count; id++) {
            Map<String, String> properties = new HashMap<>(Map.of("controller.quorum.voters", voters.toString(),
                    "log.dirs", dir.resolve("node-" + id).resolve("logs").toString(),
                    "offsets.topic.replication.factor", String.valueOf(count)));
            BootstrapMetadata.write(dir.resolve("node-" + id).resolve("metadata"),
                    ClusterFeatures.levelRecords(Map.of(ClusterFeatures.TRANSACTION_VERSION, txnVersion)));
            nodes.add(CombinedNode.start(id, CLUSTER_ID, dir.resolve("node-" + id).resolve("metadata"),
                    "PLAINTEXT://localhost:0", properties, topicConfigs));
        }
        long deadline = System.currentTimeMillis() + 60_000;
        while (!nodes.stream().allMatch(CombinedNode::isBrokerUnfenced)) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("the brokers were not unfenced within 60 s");
            }
            Thread.sleep(50);
        }
        return nodes;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
