package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
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
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three dedicated controllers and two dedicated brokers as real processes, driven through the faults the issue
 * names: kill -9 of a broker (fenced within the connection-loss grace, its leaderships move), SIGSTOP of a broker
 * (fenced only after the session timeout, back after SIGCONT), kill -9 of the active controller (a new one serves,
 * nothing committed is lost, producing carries on throughout) and a full cluster restart. The measured times are printed; the bounds asserted are
 * deliberately loose, since many JVMs share two cores here.
 */
class ClusterFaultsProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long ADMIN_WAIT_MS = 30_000;
    private static final long SESSION_TIMEOUT_MS = 3_000;
    private static final long CONNECTION_LOSS_GRACE_MS = 1_000;
    /** BrokerServer's heartbeat interval: the last heartbeat before a pause can be this old. */
    private static final long HEARTBEAT_INTERVAL_MS = 1_000;
    private static final List<Integer> CONTROLLERS = List.of(1, 2, 3);
    private static final int BROKER_A = 4;
    private static final int BROKER_B = 5;
    private static final Pattern ACTIVE = Pattern.compile("Controller (\\d+) is active in epoch (\\d+)");

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    private final Map<Integer, NodeConfigFile> nodes = new TreeMap<>();
    private final Map<Integer, Path> configFiles = new TreeMap<>();
    private final Map<Integer, JvmProcess> running = new TreeMap<>();
    private int launches;

    @Test
    void survivesBrokerAndControllerFailuresAndAFullRestart() throws Exception {
        configureAndFormat();
        long startedAtNanos = System.nanoTime();
        startAll();
        report("3 controllers and 2 brokers started, brokers unfenced, after " + elapsedMs(startedAtNanos) + " ms");
        try (Admin admin = admin(BROKER_A, BROKER_B)) {
            admin.createTopics(List.of(new NewTopic("alpha", 4, (short) 2))).all().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
            awaitLeaders(admin, "alpha", leaders -> leaders.equals(Set.of(BROKER_A, BROKER_B)));
        }

        killBrokerAndWatchItsLeadershipsMove();
        restartBrokerAndSeeItRegisterAgain();
        pauseBrokerAndSeeItFencedOnlyAfterTheSessionTimeout();
        killTheActiveControllerAndKeepCreatingTopics();
        restartTheWholeClusterAndFindEverythingBack();
    }

    private void killBrokerAndWatchItsLeadershipsMove() throws Exception {
        try (Admin admin = admin(BROKER_B)) {
            long killedAtNanos = System.nanoTime();
            report("kill -9 of broker " + BROKER_A + " at " + LocalTime.now());
            running.get(BROKER_A).kill(WAIT);
            awaitLeaders(admin, "alpha", leaders -> leaders.equals(Set.of(BROKER_B)));
            long movedMs = elapsedMs(killedAtNanos);
            report("kill -9 of broker " + BROKER_A + " -> Admin describeTopics shows broker " + BROKER_B
                    + " leading every partition after " + movedMs + " ms (connection-loss grace "
                    + CONNECTION_LOSS_GRACE_MS + " ms, session timeout " + SESSION_TIMEOUT_MS + " ms)");
            assertTrue(movedMs < 6_000, "leadership took " + movedMs + " ms to move off the killed broker");
        }
    }

    private void restartBrokerAndSeeItRegisterAgain() throws Exception {
        long startedAtNanos = System.nanoTime();
        start(BROKER_A);
        awaitStarted(BROKER_A);
        report("restarted broker " + BROKER_A + " (new incarnation) was unfenced " + elapsedMs(startedAtNanos)
                + " ms after launch");
        awaitProbe(BROKER_B, "alpha", view -> view.liveBrokers().equals(Set.of(BROKER_A, BROKER_B)));
    }

    private void pauseBrokerAndSeeItFencedOnlyAfterTheSessionTimeout() throws Exception {
        // A topic whose ISRs hold both brokers (the restarted broker rejoined no ISR of alpha: there is no
        // replication yet to bring it back), so broker B's leaderships have somewhere to go.
        try (Admin admin = admin(BROKER_A, BROKER_B)) {
            admin.createTopics(List.of(new NewTopic("beta", 4, (short) 2))).all().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
            awaitLeaders(admin, "beta", leaders -> leaders.equals(Set.of(BROKER_A, BROKER_B)));
        }
        // Freeze broker B: its connections stay open, so only its missed heartbeats count.
        long pausedAtNanos = System.nanoTime();
        running.get(BROKER_B).pause();
        Thread.sleep(CONNECTION_LOSS_GRACE_MS * 3 / 2);
        MetadataProbe.View stillLeading = MetadataProbe.ask(nodes.get(BROKER_A).brokerPort(), "beta");
        assertTrue(stillLeading.leaders().containsValue(BROKER_B) && stillLeading.liveBrokers().contains(BROKER_B),
                "a paused broker must not be fenced by the connection-loss grace: " + stillLeading);
        awaitProbe(BROKER_A, "beta", view -> Set.copyOf(view.leaders().values()).equals(Set.of(BROKER_A)));
        long fencedMs = elapsedMs(pausedAtNanos);
        report("SIGSTOP of broker " + BROKER_B + " -> fenced and leaderships moved after " + fencedMs
                + " ms (session timeout " + SESSION_TIMEOUT_MS + " ms)");
        assertTrue(fencedMs >= SESSION_TIMEOUT_MS - HEARTBEAT_INTERVAL_MS,
                "fenced after " + fencedMs + " ms, before its session could have expired");

        long resumedAtNanos = System.nanoTime();
        running.get(BROKER_B).resume();
        awaitProbe(BROKER_A, "alpha", view -> view.liveBrokers().contains(BROKER_B));
        report("SIGCONT of broker " + BROKER_B + " -> unfenced again after " + elapsedMs(resumedAtNanos) + " ms");
    }

    private void killTheActiveControllerAndKeepCreatingTopics() throws Exception {
        try (Admin admin = admin(BROKER_A, BROKER_B);
             KafkaProducer<String, String> producer = producer(BROKER_A, BROKER_B)) {
            createUntilItSucceeds(admin, new NewTopic("events", 3, (short) 2));
            List<String> acknowledged = new ArrayList<>(sendAll(producer, "before-", 100));
            int active = activeController();
            long killedAtNanos = System.nanoTime();
            report("kill -9 of active controller " + active + " at " + LocalTime.now());
            running.get(active).kill(WAIT);
            // The data path does not go through the controller: producing carries on while a new one is elected.
            // Both are timed from the kill, side by side, so neither figure includes the other.
            CompletableFuture<List<String>> produced = CompletableFuture.supplyAsync(() -> {
                try {
                    List<String> values = sendAll(producer, "after-", 100);
                    report("kill -9 of active controller " + active + " -> 100 more records acknowledged after "
                            + elapsedMs(killedAtNanos) + " ms");
                    return values;
                } catch (Exception e) {
                    throw new IllegalStateException("producing after the controller's kill failed", e);
                }
            });
            createUntilItSucceeds(admin, new NewTopic("gamma", 2, (short) 2));
            long failoverMs = elapsedMs(killedAtNanos);
            int successor = activeController();
            report("kill -9 of active controller " + active + " -> controller " + successor
                    + " active; a topic created through a broker after " + failoverMs + " ms");
            acknowledged.addAll(produced.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
            assertEquals(acknowledged, readAll("events", acknowledged.size(), BROKER_A, BROKER_B));
            assertTrue(successor != active, "controller " + active + " was killed but is still named active");
            // Each broker's image follows the log a moment after the commit; both hold every topic, and both moved
            // their heartbeat streams to the new controller and stay unfenced.
            for (int broker : List.of(BROKER_A, BROKER_B)) {
                awaitProbe(broker, "gamma", view -> view.leaders().size() == 2
                        && view.liveBrokers().equals(Set.of(BROKER_A, BROKER_B)));
            }
            assertEquals(Set.of("alpha", "beta", "events", "gamma"),
                    admin.listTopics().names().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS));
        }
    }

    private KafkaProducer<String, String> producer(int... brokerIds) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(brokerIds),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000),
                new StringSerializer(), new StringSerializer());
    }

    /** Sends {@code count} records keyed by their value, one at a time; answers the values acknowledged, in order. */
    private static List<String> sendAll(KafkaProducer<String, String> producer, String prefix, int count)
            throws Exception {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String value = prefix + i;
            producer.send(new ProducerRecord<>("events", 0, value, value)).get(60, TimeUnit.SECONDS);
            values.add(value);
        }
        return values;
    }

    /** Reads partition 0 of {@code topic} from the start until {@code count} records arrived. */
    private List<String> readAll(String topic, int count, int... brokerIds) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(brokerIds),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            List<String> values = new ArrayList<>();
            long deadline = System.currentTimeMillis() + ADMIN_WAIT_MS;
            while (values.size() < count && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            return values;
        }
    }

    private String bootstrap(int... brokerIds) {
        return java.util.Arrays.stream(brokerIds).mapToObj(id -> "127.0.0.1:" + nodes.get(id).brokerPort())
                .collect(Collectors.joining(","));
    }

    private void restartTheWholeClusterAndFindEverythingBack() throws Exception {
        // SIGTERM: the brokers first (their controlled shutdowns need the controllers), then the controllers.
        stopAll(List.of(BROKER_A, BROKER_B));
        for (int broker : List.of(BROKER_A, BROKER_B)) {
            assertTrue(running.get(broker).stderr().contains("Broker " + broker + " completed its controlled shutdown"),
                    running.get(broker).describeLogs());
        }
        stopAll(CONTROLLERS.stream().filter(id -> running.get(id).isAlive()).toList());
        long restartedAtNanos = System.nanoTime();
        startAll();
        try (Admin admin = admin(BROKER_A, BROKER_B)) {
            assertEquals(Set.of("alpha", "beta", "events", "gamma"),
                    admin.listTopics().names().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS));
            awaitLeaders(admin, "alpha", leaders -> !leaders.contains(-1));
            report("full cluster restart -> both brokers unfenced and every alpha partition led after "
                    + elapsedMs(restartedAtNanos) + " ms");
            Map<String, TopicDescription> described = admin.describeTopics(List.of("alpha", "beta", "gamma"))
                    .allTopicNames().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
            assertEquals(4, described.get("alpha").partitions().size());
            assertEquals(4, described.get("beta").partitions().size());
            assertEquals(2, described.get("gamma").partitions().size());
            createUntilItSucceeds(admin, new NewTopic("delta", 1, (short) 2));
        }
    }

    // ---- cluster plumbing -----------------------------------------------------------------------------------

    private void configureAndFormat() {
        List<NodeConfigFile> controllers = new ArrayList<>();
        for (int id : CONTROLLERS) {
            NodeConfigFile controller = NodeConfigFile.controller(id, dataDir.resolve("node-" + id))
                    .with("broker.session.timeout.ms", Long.toString(SESSION_TIMEOUT_MS))
                    .with("broker.connection.loss.grace.ms", Long.toString(CONNECTION_LOSS_GRACE_MS));
            controllers.add(controller);
            nodes.put(id, controller);
        }
        controllers.forEach(controller -> controller.voters(controllers));
        for (int id : List.of(BROKER_A, BROKER_B)) {
            nodes.put(id, NodeConfigFile.broker(id, dataDir.resolve("node-" + id)).voters(controllers));
        }
        // What 'kraft-cli format' writes (its own tests cover the command), without five more JVM launches.
        String clusterId = MetaProperties.randomUuid();
        nodes.forEach((id, node) -> {
            configFiles.put(id, node.write());
            node.directories().forEach(directory -> MetaProperties.forNewDirectory(clusterId, id).write(directory));
        });
    }

    /** SIGTERM to each node at once, then waits for each to exit cleanly. */
    private void stopAll(List<Integer> nodeIds) {
        List<CompletableFuture<Integer>> exits = new ArrayList<>();
        for (int id : nodeIds) {
            exits.add(CompletableFuture.supplyAsync(() -> running.get(id).stop(WAIT)));
        }
        for (int i = 0; i < nodeIds.size(); i++) {
            int exit = exits.get(i).join();
            JvmProcess process = running.get(nodeIds.get(i));
            assertTrue(exit == 0 || exit == 143, process + " exited with " + exit + process.describeLogs());
        }
    }

    private void startAll() {
        nodes.keySet().forEach(this::start);
        nodes.keySet().forEach(this::awaitStarted);
    }

    private void start(int nodeId) {
        launches++;
        // The node logs carry timestamps, to tell where the time of each phase went.
        running.put(nodeId, processes.start(JvmSpec.kraftCli("node-" + nodeId + "-run-" + launches, "start",
                "--config", configFiles.get(nodeId).toString())));
    }

    private void awaitStarted(int nodeId) {
        JvmProcess process = running.get(nodeId);
        process.waitForLogLine("kraft node " + nodeId + " ready", WAIT);
        if (!CONTROLLERS.contains(nodeId)) {
            process.waitForLogLine("Broker " + nodeId + " is unfenced", WAIT);
        }
    }

    /** The live controller that most recently became active (the highest epoch any controller logged). */
    private int activeController() {
        long deadlineNanos = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() - deadlineNanos < 0) {
            int best = -1;
            long bestEpoch = -1;
            for (int id : CONTROLLERS) {
                Matcher matcher = ACTIVE.matcher(running.get(id).stderr());
                while (matcher.find()) {
                    long epoch = Long.parseLong(matcher.group(2));
                    if (epoch > bestEpoch) {
                        bestEpoch = epoch;
                        best = Integer.parseInt(matcher.group(1));
                    }
                }
            }
            if (best > 0 && running.get(best).isAlive()) {
                return best;
            }
            sleep(100);
        }
        throw new AssertionError("no live controller logged that it is active");
    }

    private Admin admin(int... brokerIds) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(brokerIds),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000",
                AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "50",
                AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "50",
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200"));
    }

    /** Polls Admin describeTopics until the set of partition leaders (-1 for none) satisfies the condition. */
    private void awaitLeaders(Admin admin, String topic, Predicate<Set<Integer>> condition) {
        Set<Integer> last = Set.of();
        long deadlineNanos = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() - deadlineNanos < 0) {
            try {
                TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                        .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS).get(topic);
                last = description.partitions().stream()
                        .map(p -> p.leader() == null || p.leader().isEmpty() ? -1 : p.leader().id())
                        .collect(Collectors.toSet());
                if (condition.test(last)) {
                    return;
                }
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                // a broker went away under the request: ask again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            sleep(20);
        }
        throw new AssertionError("leaders of " + topic + " are still " + last);
    }

    /** Asks one broker until its view satisfies the condition. */
    private void awaitProbe(int brokerId, String topic, Predicate<MetadataProbe.View> condition) {
        MetadataProbe.View last = null;
        long deadlineNanos = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() - deadlineNanos < 0) {
            try {
                last = MetadataProbe.ask(nodes.get(brokerId).brokerPort(), topic);
                if (condition.test(last)) {
                    return;
                }
            } catch (IOException e) {
                // not answering yet
            }
            sleep(20);
        }
        throw new AssertionError("broker " + brokerId + " still says " + last);
    }

    /** Creates a topic, retrying while the controller quorum fails over; an earlier attempt may have created it. */
    private void createUntilItSucceeds(Admin admin, NewTopic topic) {
        long deadlineNanos = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try {
                admin.createTopics(List.of(topic)).all().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
                return;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof TopicExistsException) {
                    return;
                }
                if (System.nanoTime() - deadlineNanos > 0) {
                    throw new AssertionError("could not create " + topic.name(), e);
                }
            } catch (java.util.concurrent.TimeoutException e) {
                if (System.nanoTime() - deadlineNanos > 0) {
                    throw new AssertionError("could not create " + topic.name(), e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            sleep(20);
        }
    }

    private static long elapsedMs(long sinceNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos);
    }

    private static void report(String line) {
        System.out.println("[cluster-faults] " + line);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
