package io.kraft.server.replica;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.server.BrokerNode;
import io.kraft.server.ControllerNode;
import io.kraft.server.TestFaultHandler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * One controller and some dedicated brokers in this JVM, with a recording fault handler and the clients a test opens,
 * all closed together (clients first); closing fails the test if a node reported a fault.
 */
final class InProcessCluster implements AutoCloseable {
    private final Map<Integer, BrokerNode> brokers = new TreeMap<>();
    private final TestFaultHandler faults = new TestFaultHandler();
    private final List<AutoCloseable> clients = new ArrayList<>();
    private final List<String> bootstrap = new ArrayList<>();
    private final Map<Integer, Integer> ports = new HashMap<>();
    private final Map<Integer, Map<String, String>> brokerConfigs = new HashMap<>();
    private final TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
            LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
    private String clusterId;
    private Path dir;
    private ControllerNode controller;

    private InProcessCluster() {
    }

    /** Starts the controller (node 1) and the brokers, and waits until every broker is unfenced. */
    static InProcessCluster start(Path dir, String clusterId, List<Integer> brokerIds, Map<String, String> properties,
                                  Map<String, String> brokerProperties) throws Exception {
        InProcessCluster cluster = new InProcessCluster();
        cluster.clusterId = clusterId;
        cluster.dir = dir;
        try {
            Map<String, String> common = new HashMap<>(properties);
            common.put("controller.quorum.voters", "1@localhost:" + freePort());
            cluster.controller = ControllerNode.start(1, clusterId, dir.resolve("controller-1"), common,
                    cluster.topicConfigs, cluster.faults);
            for (int id : brokerIds) {
                int port = freePort();
                Map<String, String> own = new HashMap<>(common);
                own.putAll(brokerProperties);
                own.put("log.dirs", dir.resolve("broker-" + id).resolve("logs").toString());
                cluster.ports.put(id, port);
                cluster.brokerConfigs.put(id, own);
                cluster.startBroker(id);
                cluster.bootstrap.add("localhost:" + port);
            }
            for (BrokerNode broker : cluster.brokers.values()) {
                awaitTrue(broker::isBrokerUnfenced, "broker " + broker.nodeId() + " to be unfenced");
            }
            return cluster;
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    private void startBroker(int id) throws Exception {
        brokers.put(id, BrokerNode.start(id, clusterId, dir.resolve("broker-" + id).resolve("metadata"),
                "PLAINTEXT://localhost:" + ports.get(id), brokerConfigs.get(id), topicConfigs, faults));
    }

    /** Stops a broker and starts it again on the same port and directories; waits until it is unfenced. */
    void restartBroker(int id) throws Exception {
        brokers.remove(id).close();
        startBroker(id);
        awaitTrue(brokers.get(id)::isBrokerUnfenced, "broker " + id + " to be unfenced after its restart");
    }

    /** Closes broker {@code id} as SIGTERM would (controlled shutdown, logs closed cleanly) and leaves it down. */
    void stopBroker(int id) {
        brokers.remove(id).close();
    }

    /** Starts a broker {@link #stopBroker stopped} before on its port and directories; waits until it is unfenced. */
    void startStoppedBroker(int id) throws Exception {
        startBroker(id);
        awaitTrue(brokers.get(id)::isBrokerUnfenced, "broker " + id + " to be unfenced after its start");
    }

    /** Broker {@code id}'s log directory. */
    Path logDir(int id) {
        return Path.of(brokerConfigs.get(id).get("log.dirs"));
    }

    BrokerNode broker(int id) {
        return brokers.get(id);
    }

    List<Integer> brokerIds() {
        return List.copyOf(brokers.keySet());
    }

    String bootstrap() {
        return String.join(",", bootstrap);
    }

    /** An Admin client on every broker, closed with the cluster. */
    Admin admin() {
        return closeLater(Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000")));
    }

    /** Closes {@code client} before the nodes when the cluster closes. */
    <T extends AutoCloseable> T closeLater(T client) {
        clients.add(client);
        return client;
    }

    /**
     * Reads the partitions from the start with a new consumer until {@code expected} values came (or the wait
     * ends), then polls once more so that a value beyond them (a duplicate) shows too.
     */
    static List<String> readValues(String bootstrap, List<TopicPartition> partitions, int expected, long waitMs) {
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
            while (read.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> read.add(record.value()));
            }
            consumer.poll(Duration.ofMillis(300)).forEach(record -> read.add(record.value()));
        }
        return read;
    }

    @Override
    public void close() throws Exception {
        closeAll(clients, brokers.values(), controller, faults);
    }

    /** Closes a test's clients, then its brokers and controller (may be null), then checks no node faulted. */
    static void closeAll(List<AutoCloseable> clients, Collection<BrokerNode> brokers, ControllerNode controller,
                         TestFaultHandler faults) throws Exception {
        for (AutoCloseable client : clients) {
            client.close();
        }
        brokers.forEach(BrokerNode::close);
        if (controller != null) {
            controller.close();
        }
        faults.assertNone();
    }
}
