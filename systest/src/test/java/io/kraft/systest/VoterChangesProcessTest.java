package io.kraft.systest;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * KIP-853 with real processes while a producer writes with acks=all: a controller formatted standalone grows to
 * three with {@code kraft-cli quorum add-controller}, a controller whose disk was wiped comes back as a new voter
 * (a new directory id), and the active controller is removed. The broker only ever names the first controller, in
 * controller.quorum.bootstrap.servers. Every record the producer sent is acknowledged.
 */
class VoterChangesProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Duration EXIT = Duration.ofSeconds(60);
    private static final int BROKER = 9;

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path root;

    private final Map<Integer, NodeConfigFile> configs = new TreeMap<>();
    private final Map<Integer, JvmProcess> running = new TreeMap<>();
    private String clusterId;
    private String firstController;

    /** Controllers 1-3, each naming all three in controller.quorum.bootstrap.servers (as a deployment would). */
    private void controllers() {
        for (int id = 1; id <= 3; id++) {
            configs.put(id, NodeConfigFile.controller(id, root.resolve("controller-" + id))
                    .with("controller.quorum.voters", null));
        }
        String all = configs.values().stream().map(c -> "127.0.0.1:" + c.controllerPort())
                .collect(Collectors.joining(","));
        configs.values().forEach(c -> c.with("controller.quorum.bootstrap.servers", all));
        firstController = "127.0.0.1:" + configs.get(1).controllerPort();
    }

    private void cli(String name, String... args) {
        JvmProcess run = processes.run(JvmSpec.kraftCli(name, args), EXIT);
        assertEquals(0, run.waitForExit(EXIT), run.describeLogs());
    }

    private void start(int id) {
        JvmProcess process = processes.start(JvmSpec.kraftCli("node-" + id + "-" + System.nanoTime(), "start",
                "--config", configs.get(id).write().toString()));
        running.put(id, process);
        process.waitForLogLine("kraft node " + id + " ready", WAIT);
    }

    private String bootstrapControllers() {
        return running.keySet().stream().filter(id -> id != BROKER)
                .map(id -> "127.0.0.1:" + configs.get(id).controllerPort()).collect(Collectors.joining(","));
    }

    /** Runs add-controller for {@code id} until the leader takes it (it refuses until the controller caught up). */
    private void addController(int id) {
        await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).until(() -> processes.run(JvmSpec.kraftCli(
                "add-" + id + "-" + System.nanoTime(), "quorum", "--bootstrap-controller", bootstrapControllers(),
                "--command-config", configs.get(id).write().toString(), "add-controller"), EXIT)
                .waitForExit(EXIT) == 0);
    }

    private void removeController(int id, String directoryId) {
        cli("remove-" + id, "quorum", "--bootstrap-controller", bootstrapControllers(), "remove-controller",
                "--controller-id", Integer.toString(id), "--controller-directory-id", directoryId);
    }

    private String directoryOf(int id) {
        return MetaProperties.read(configs.get(id).dataDir().resolve("metadata")).orElseThrow().directoryId();
    }

    private static Map<Integer, String> voters(Admin admin) throws Exception {
        Map<Integer, String> voters = new TreeMap<>();
        for (QuorumInfo.ReplicaState voter : admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS)
                .voters()) {
            voters.put(voter.replicaId(), voter.replicaDirectoryId().toString());
        }
        return voters;
    }

    private static int leader(Admin admin) throws Exception {
        return admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).leaderId();
    }

    @Test
    void growReplaceAWipedControllerAndRemoveTheActiveOneWhileProducing() throws Exception {
        clusterId = MetaProperties.randomUuid();
        controllers();
        cli("format-1", "format", "--config", configs.get(1).write().toString(), "--cluster-id", clusterId,
                "--standalone");
        start(1);
        NodeConfigFile broker = NodeConfigFile.broker(BROKER, root.resolve("broker"))
                .with("controller.quorum.bootstrap.servers", firstController);
        configs.put(BROKER, broker);
        cli("format-broker", "format", "--config", broker.write().toString(), "--cluster-id", clusterId);
        start(BROKER);

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + broker.brokerPort(), AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000"));
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.brokerPort(),
                     ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, "5",
                     ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000"),
                     new StringSerializer(), new StringSerializer())) {
            admin.createTopics(List.of(new NewTopic("writes", 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
            AtomicLong acked = new AtomicLong();
            AtomicReference<Exception> failed = new AtomicReference<>();
            AtomicBoolean producing = new AtomicBoolean(true);
            Thread writer = new Thread(() -> {
                long n = 0;
                while (producing.get() && failed.get() == null) {
                    producer.send(new ProducerRecord<>("writes", Long.toString(n), "v" + n++), (meta, error) -> {
                        if (error != null) {
                            failed.compareAndSet(null, error);
                        } else {
                            acked.incrementAndGet();
                        }
                    });
                    sleepMs(5);
                }
            }, "producer");
            writer.start();
            try {
                changeTheQuorum(admin, acked);
            } finally {
                producing.set(false);
                writer.join();
            }
            producer.flush();
            assertEquals(null, failed.get(), "every send acknowledged");
            assertTrue(acked.get() > 300, "writes went on through the changes: " + acked.get());
        }
    }

    /** Grows the quorum to three, replaces a wiped follower, removes the leader; writes go on after each step. */
    private void changeTheQuorum(Admin admin, AtomicLong acked) throws Exception {
        // Grow to three.
        for (int id = 2; id <= 3; id++) {
            cli("format-" + id, "format", "--config", configs.get(id).write().toString(), "--cluster-id", clusterId,
                    "--no-initial-controllers");
            start(id);
            addController(id);
        }
        await().atMost(WAIT).ignoreExceptions().until(() -> voters(admin).keySet().equals(Set.of(1, 2, 3)));
        long afterGrowth = acked.get();
        await().atMost(WAIT).until(() -> acked.get() > afterGrowth + 100);

        // Wipe a follower's disk (three voters: the other two keep a majority): it comes back as a new voter with a
        // new directory id.
        int wiped = voters(admin).keySet().stream().filter(id -> id != uncheckedLeader(admin)).findFirst()
                .orElseThrow();
        String oldDirectory = directoryOf(wiped);
        running.remove(wiped).stop(EXIT);
        deleteTree(configs.get(wiped).dataDir().resolve("metadata"));
        deleteTree(configs.get(wiped).dataDir().resolve("logs"));
        cli("reformat-" + wiped, "format", "--config", configs.get(wiped).write().toString(), "--cluster-id",
                clusterId, "--no-initial-controllers");
        start(wiped); // an observer: its new directory is not in the voter set
        removeController(wiped, oldDirectory);
        addController(wiped);
        String newDirectory = directoryOf(wiped);
        await().atMost(WAIT).ignoreExceptions().until(() -> newDirectory.equals(voters(admin).get(wiped))
                && voters(admin).size() == 3);
        long afterReplacement = acked.get();
        await().atMost(WAIT).until(() -> acked.get() > afterReplacement + 100);

        // Remove the active controller; the other two elect a successor and the broker follows it.
        int active = leader(admin);
        removeController(active, directoryOf(active));
        await().atMost(WAIT).ignoreExceptions().until(() -> leader(admin) != active
                && voters(admin).keySet().size() == 2);
        long afterRemoval = acked.get();
        running.remove(active).stop(EXIT);
        await().atMost(WAIT).until(() -> acked.get() > afterRemoval + 100);
    }

    private static int uncheckedLeader(Admin admin) {
        try {
            return leader(admin);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void deleteTree(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
