package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.store.MetadataStateStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random sequences of registrations, heartbeats, fencings (by time and by connection loss), controlled
 * shutdowns, topic creations and deletions, partition additions and AlterPartitions, driven through the
 * control managers; the records of each accepted request are replayed into the managers and into a
 * follower's MetadataImage, and invariants are checked after every step. A failure names its seed;
 * {@code -Dkraft.seed=N} replays that one sequence.
 */
class ControllerRandomizedTest {
    private static final int SEQUENCES = 200;
    private static final int STEPS = 150;
    private static final int BROKERS = 5;
    private static final int STORE_EVERY = 10;
    private static final List<String> TOPIC_NAMES = List.of("a", "b", "c.d", "c_d", "e", "bad name", "..");

    @Test
    void randomOperationsKeepTheInvariants(@TempDir Path storeDirs) {
        String replay = System.getProperty("kraft.seed");
        if (replay != null) {
            runWithSeed(Long.parseLong(replay), storeDirs);
            return;
        }
        long base = new Random().nextLong();
        Map<String, Integer> effective = new HashMap<>();
        for (int i = 0; i < SEQUENCES; i++) {
            runWithSeed(base + i, storeDirs).effectiveOperations.forEach((op, n) -> effective.merge(op, n, Integer::sum));
        }
        // Guards the generator itself: every kind of change must actually happen, not only be rejected.
        for (String operation : List.of("register", "heartbeat", "fenceStaleBrokers", "createTopic", "deleteTopic",
                "createPartitions", "alterPartition", "allocateProducerIds", "alterConfigs", "partitionChange")) {
            assertTrue(effective.getOrDefault(operation, 0) > 0, operation + " never changed anything: " + effective);
        }
    }

    private static Simulation runWithSeed(long seed, Path storeDirs) {
        Simulation simulation = new Simulation(seed);
        int step = 0;
        // Some sequences also keep the state in RocksDB, as a node does, and compare it at the end.
        MetadataStateStore store = Math.floorMod(seed, STORE_EVERY) == 0
                ? MetadataStateStore.open(storeDirs.resolve("seed-" + seed)) : null;
        if (store != null) {
            simulation.env.batchListener = (records, lastOffset) -> store.apply(records, lastOffset, 1);
        }
        try (store) {
            for (step = 0; step < STEPS; step++) {
                simulation.step();
                simulation.checkInvariants();
            }
            simulation.checkRebuilds();
            if (store != null) {
                assertEquals(simulation.env.image, store.loadImage(), "the state store holds the image");
            }
            return simulation;
        } catch (Throwable e) {
            throw new AssertionError("Failed at step " + step + " with seed " + seed + " (replay: -Dkraft.seed="
                    + seed + "); last operation: " + simulation.lastOperation, e);
        }
    }

    /** One random cluster history. */
    private static final class Simulation {
        private final Random random;
        private final ControllerTestEnv env;
        private final Map<Integer, Long> epochs = new HashMap<>();
        private final Map<Integer, UUID> incarnations = new HashMap<>();
        private final Map<TopicIdPartition, PartitionRegistration> lastSeen = new HashMap<>();
        private final Map<String, Integer> effectiveOperations = new HashMap<>();
        String lastOperation = "none";

        Simulation(long seed) {
            this.random = new Random(seed);
            ControllerSettings settings = ControllerSettings.defaults(ControllerTestEnv.CLUSTER_ID)
                    .withUncleanLeaderElection(random.nextInt(4) == 0);
            this.env = new ControllerTestEnv(settings, new Random(random.nextLong()));
        }

        void step() {
            int choice = random.nextInt(100);
            if (choice < 12) {
                register();
            } else if (choice < 40) {
                heartbeat();
            } else if (choice < 48) {
                advanceTime();
            } else if (choice < 52) {
                int brokerId = brokerId();
                lastOperation = "connectionClosed(" + brokerId + ")";
                env.managers.connectionClosed(brokerId, env.nowMs);
            } else if (choice < 64) {
                createTopic();
            } else if (choice < 68) {
                String name = topicName();
                apply("deleteTopic(" + name + ")", env.managers.deleteTopic(name));
            } else if (choice < 74) {
                createPartitions();
            } else if (choice < 94) {
                alterPartition();
            } else if (choice < 97) {
                int brokerId = brokerId();
                apply("allocateProducerIds(" + brokerId + ")",
                        env.managers.allocateProducerIds(brokerId, epochs.getOrDefault(brokerId, 0L)));
            } else {
                String name = topicName();
                apply("alterConfigs(" + name + ")", env.managers.incrementalAlterConfigs(ConfigResource.topic(name),
                        Map.of("retention.ms", random.nextBoolean() ? Optional.of("1000") : Optional.empty())));
            }
        }

        private int brokerId() {
            return 1 + random.nextInt(BROKERS + 1); // one id never registers
        }

        private String topicName() {
            return TOPIC_NAMES.get(random.nextInt(TOPIC_NAMES.size()));
        }

        private void register() {
            int brokerId = brokerId();
            if (brokerId > BROKERS) {
                return;
            }
            UUID incarnation = incarnations.containsKey(brokerId) && random.nextBoolean()
                    ? incarnations.get(brokerId) : new UUID(random.nextLong(), random.nextLong());
            String clusterId = random.nextInt(10) == 0 ? "other" : ControllerTestEnv.CLUSTER_ID;
            Optional<String> rack = Optional.of("rack" + (brokerId % 2));
            ControllerResult<Long> result = apply("register(" + brokerId + ", " + clusterId + ")",
                    env.managers.registerBroker(new BrokerRegistrationRequest(clusterId, brokerId, incarnation,
                            List.of(new Endpoint("PLAINTEXT", "localhost", 9000 + brokerId, "PLAINTEXT")), rack),
                            env.nowMs));
            if (result.isSuccess()) {
                epochs.put(brokerId, result.response());
                incarnations.put(brokerId, incarnation);
            }
        }

        private void heartbeat() {
            int brokerId = brokerId();
            long epoch = epochs.getOrDefault(brokerId, 0L) - (random.nextInt(10) == 0 ? 1 : 0);
            long offset = random.nextInt(5) == 0 ? 0 : env.nextOffset - 1;
            boolean wantFence = random.nextInt(10) == 0;
            boolean wantShutDown = random.nextInt(12) == 0;
            apply("heartbeat(" + brokerId + ", epoch " + epoch + ", offset " + offset + ", fence " + wantFence
                            + ", shutdown " + wantShutDown + ")",
                    env.managers.heartbeat(new BrokerHeartbeatRequest(brokerId, epoch, offset, wantFence, wantShutDown),
                            env.nowMs));
        }

        // The controller's timer may fire late: requests can arrive between a deadline and the fencing.
        private void advanceTime() {
            env.nowMs += random.nextInt(6_000);
            if (random.nextInt(3) != 0) {
                apply("fenceStaleBrokers(" + env.nowMs + ")", env.managers.fenceStaleBrokers(env.nowMs));
            }
        }

        private void createTopic() {
            String name = topicName();
            Map<String, String> configs = random.nextInt(4) == 0 ? Map.of("retention.ms", "60000") : Map.of();
            if (random.nextInt(4) == 0) {
                Map<Integer, List<Integer>> assignments = new HashMap<>();
                int replicationFactor = 1 + random.nextInt(3);
                for (int p = 0; p < 1 + random.nextInt(3); p++) {
                    assignments.put(p, randomReplicas(replicationFactor));
                }
                apply("createTopic(" + name + ", " + assignments + ")",
                        env.managers.createTopic(new CreateTopicRequest(name, -1, -1, assignments, configs)));
                return;
            }
            int partitions = random.nextInt(5);
            int replicationFactor = random.nextInt(4);
            apply("createTopic(" + name + ", " + partitions + ", " + replicationFactor + ")",
                    env.managers.createTopic(new CreateTopicRequest(name, partitions, replicationFactor, Map.of(),
                            configs)));
        }

        // Distinct broker ids, possibly fenced or never registered, so that bad assignments occur too.
        private List<Integer> randomReplicas(int count) {
            List<Integer> ids = new ArrayList<>();
            for (int id = 1; id <= BROKERS + 1; id++) {
                ids.add(id);
            }
            java.util.Collections.shuffle(ids, random);
            return List.copyOf(ids.subList(0, count));
        }

        private void createPartitions() {
            String name = topicName();
            TopicImage topic = env.image.topics().topic(name);
            int current = topic == null ? 1 : topic.partitions().size();
            int total = current + random.nextInt(3);
            List<List<Integer>> assignments = new ArrayList<>();
            if (topic != null && random.nextInt(3) == 0) {
                int replicationFactor = topic.partition(0).replicas().size();
                for (int p = current; p < total; p++) {
                    assignments.add(randomReplicas(replicationFactor));
                }
            }
            apply("createPartitions(" + name + ", " + total + ", " + assignments + ")",
                    env.managers.createPartitions(name, total, assignments));
        }

        private void alterPartition() {
            List<TopicImage> topics = new ArrayList<>(env.image.topics().topicsByName().values());
            if (topics.isEmpty()) {
                return;
            }
            topics.sort((x, y) -> x.name().compareTo(y.name()));
            TopicImage topic = topics.get(random.nextInt(topics.size()));
            int partitionId = random.nextInt(topic.partitions().size());
            PartitionRegistration partition = topic.partition(partitionId);
            int brokerId = random.nextInt(8) == 0 ? brokerId() : partition.leader();
            List<Integer> isr = new ArrayList<>();
            for (int replica : partition.replicas()) {
                if (replica == partition.leader() || random.nextBoolean()) {
                    isr.add(replica);
                }
            }
            int leaderEpoch = partition.leaderEpoch() - (random.nextInt(10) == 0 ? 1 : 0);
            int partitionEpoch = partition.partitionEpoch() - (random.nextInt(10) == 0 ? 1 : 0);
            apply("alterPartition(" + topic.name() + "-" + partitionId + " by " + brokerId + ", isr " + isr + ")",
                    env.managers.alterPartition(new AlterPartitionRequest(brokerId, epochs.getOrDefault(brokerId, 0L),
                            topic.id(), partitionId, leaderEpoch, isr, partitionEpoch)));
        }

        private <T> ControllerResult<T> apply(String operation, ControllerResult<T> result) {
            lastOperation = operation + " -> " + result.error() + " with " + result.records().size() + " records";
            if (!result.records().isEmpty()) {
                effectiveOperations.merge(operation.substring(0, operation.indexOf('(')), 1, Integer::sum);
                if (!operation.startsWith("alterPartition") && result.records().stream()
                        .anyMatch(r -> r.hasPartitionChange())) {
                    effectiveOperations.merge("partitionChange", 1, Integer::sum);
                }
            }
            if (!result.isSuccess()) {
                assertTrue(result.records().isEmpty(), "a rejected request emitted records");
            }
            env.commit(result);
            return result;
        }

        void checkInvariants() {
            MetadataImage image = env.image;
            Map<TopicIdPartition, PartitionRegistration> current = new HashMap<>();
            for (TopicImage topic : image.topics().topicsById().values()) {
                topic.partitions().forEach((partitionId, partition) -> {
                    String where = topic.name() + "-" + partitionId + " " + partition;
                    assertEquals(partition.replicas().size(), new HashSet<>(partition.replicas()).size(), where);
                    assertTrue(partition.replicas().containsAll(partition.isr()), "ISR within replicas: " + where);
                    assertTrue(!partition.isr().isEmpty(), "ISR never empty: " + where);
                    if (partition.hasLeader()) {
                        assertTrue(partition.isr().contains(partition.leader()), "leader in ISR: " + where);
                        BrokerRegistration leader = image.cluster().broker(partition.leader());
                        assertTrue(leader != null && !leader.fenced() && !leader.inControlledShutdown(),
                                "leader unfenced: " + where + " leader " + leader);
                    } else {
                        for (int member : partition.isr()) {
                            assertTrue(!env.managers.cluster().isUsable(member),
                                    "a leaderless partition has no usable ISR member: " + where);
                        }
                    }
                    TopicIdPartition id = new TopicIdPartition(topic.id(), partitionId);
                    PartitionRegistration before = lastSeen.get(id);
                    if (before != null) {
                        assertTrue(partition.leaderEpoch() >= before.leaderEpoch(), "leader epoch shrank: " + where);
                        assertTrue(partition.partitionEpoch() >= before.partitionEpoch(),
                                "partition epoch shrank: " + where);
                        if (partition.leader() != before.leader()) {
                            assertTrue(partition.leaderEpoch() > before.leaderEpoch(),
                                    "a new leader has a new epoch: " + where);
                        }
                    }
                    current.put(id, partition);
                });
            }
            lastSeen.keySet().retainAll(current.keySet());
            lastSeen.putAll(current);
            assertEquals(image, env.managers.image(image.provenance()), "the managers' view equals the image");
        }

        void checkRebuilds() {
            MetadataImage image = env.image;
            assertEquals(image, MetadataDelta.imageOf(image.toRecords(), image.provenance()));
            ControlManagers rebuilt = ControlManagers.fromImage(image, env.settings,
                    ControllerTestEnv.topicConfigResolver(), ControllerTestEnv.FEATURES, new Random(0));
            assertEquals(image, rebuilt.image(image.provenance()));
        }
    }
}
