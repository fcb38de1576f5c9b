package io.kraft.server.replica;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.quota.ReplicationQuota;
import io.kraft.broker.quota.ReplicationQuotaConfig;
import io.kraft.broker.replica.ReplicationConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replication throttles (KIP-73) on three in-process brokers, set as kafka-reassign-partitions --throttle sets them:
 * a throttled reassignment copies at about the throttled rate, and reassignments under a producer (every replica
 * moved, then replication factor 1 -> 3 -> 2) lose nothing while the measured throttled rates stay near their bound.
 */
class ReplicationThrottleEndToEndTest {
    private static final String CLUSTER_ID = "UmVwbGljYXRpb25UaHJvdHRsZQ";
    private static final long WAIT_MS = 120_000;
    private static final long RATE = 1024 * 1024;

    @TempDir
    Path dir;

    private InProcessCluster cluster;
    private Admin admin;

    @AfterEach
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private void start() throws Exception {
        // Two one-second samples: a rate is measured over one to two seconds, so a burst passes the bound quickly;
        // 256 KiB per partition and fetch keeps each step of the copy small against the rate.
        cluster = InProcessCluster.start(dir, CLUSTER_ID, List.of(2, 3, 4), Map.of(
                "controller.quorum.election.timeout.ms", "300", "controller.quorum.fetch.timeout.ms", "600",
                ReplicationConfig.REPLICA_FETCH_BACKOFF_MS, "100"), Map.of(
                ReplicationQuotaConfig.WINDOW_NUM, "2", ReplicationQuotaConfig.WINDOW_SIZE_SECONDS, "1",
                ReplicationConfig.REPLICA_FETCH_MAX_BYTES, String.valueOf(256 * 1024)));
        admin = cluster.admin();
    }

    @Test
    void aThrottledReassignmentCopiesAtAboutTheThrottledRate() throws Exception {
        start();
        admin.createTopics(List.of(new NewTopic("big", Map.of(0, List.of(2))))).all()
                .get(WAIT_MS, TimeUnit.MILLISECONDS);
        KafkaProducer<byte[], byte[]> producer = cluster.closeLater(new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap(), ProducerConfig.LINGER_MS_CONFIG, "5",
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "none"), new ByteArraySerializer(), new ByteArraySerializer()));
        byte[] value = new byte[1024];
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (int i = 0; i < 8 * 1024; i++) {
            value[i % value.length] = (byte) i; // no two records alike
            acks.add(producer.send(new ProducerRecord<>("big", value.clone())));
        }
        for (Future<RecordMetadata> ack : acks) {
            ack.get(WAIT_MS, TimeUnit.MILLISECONDS);
        }
        long size = cluster.broker(2).replicaManager().partition(new io.kraft.storage.log.TopicPartition("big", 0))
                .orElseThrow().log().sizeInBytes();

        throttle(Map.of(new TopicPartition("big", 0), List.of(2)), Map.of(new TopicPartition("big", 0), List.of(2, 3)));
        long startNs = System.nanoTime();
        reassign(Map.of(new TopicPartition("big", 0), List.of(2, 3)));
        double seconds = (System.nanoTime() - startNs) / 1e9;

        ReplicationQuota leader = cluster.broker(2).replicaManager().throttles().leader();
        ReplicationQuota follower = cluster.broker(3).replicaManager().throttles().follower();
        assertTrue(leader.bytes() >= size * 9 / 10, "the leader counted " + leader.bytes() + " of " + size);
        assertTrue(follower.bytes() >= size * 9 / 10, "the follower counted " + follower.bytes() + " of " + size);
        assertTrue(leader.heldBackCount() + follower.heldBackCount() > 0, "the throttle held the copy back");
        // Generous: the first samples let a burst through; a slow machine only makes the copy slower.
        double rate = size / seconds;
        assertTrue(rate < 2 * RATE, size + " bytes in " + seconds + " s is " + (long) rate + " bytes/s");
    }

    @Test
    void reassignmentsUnderAProducerLoseNothingAndKeepTheThrottledRatesNearTheirBound() throws Exception {
        start();
        admin.createTopics(List.of(new NewTopic("moving", Map.of(0, List.of(2), 1, List.of(3), 2, List.of(4)))))
                .all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000);
        KafkaProducer<String, String> producer = cluster.closeLater(new KafkaProducer<>(config,
                new StringSerializer(), new StringSerializer()));
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicBoolean producing = new AtomicBoolean(true);
        String padding = "x".repeat(100);
        Thread writer = new Thread(() -> {
            for (int i = 0; producing.get(); i++) {
                String value = "v" + i + padding;
                producer.send(new ProducerRecord<>("moving", i % 3, null, value), (metadata, error) -> {
                    if (error == null) {
                        acknowledged.add(value);
                    } else {
                        failures.add(error);
                    }
                });
                if (i % 50 == 49) {
                    // Well under the throttle (at most ~275 KB/s): a follower copying slower than the partition
                    // grows would never catch up, throttled or not.
                    producer.flush();
                    pause(20);
                }
            }
            producer.flush();
        }, "throttled-reassignment-producer");
        writer.start();
        double[] peak = new double[1];
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                for (int id : cluster.brokerIds()) {
                    peak[0] = Math.max(peak[0], Math.max(cluster.broker(id).replicaManager().throttles().leader()
                            .byteRate(), cluster.broker(id).replicaManager().throttles().follower().byteRate()));
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "throttle-rate-sampler");
        sampler.start();
        try {
            await("data to move").atMost(Duration.ofMillis(WAIT_MS)).until(() -> acknowledged.size() > 5_000);
            // Every replica to another broker, then replication factor 1 -> 3 -> 2, each step throttled.
            step(Map.of(0, List.of(3), 1, List.of(4), 2, List.of(2)));
            step(Map.of(0, List.of(3, 4, 2), 1, List.of(4, 2, 3), 2, List.of(2, 3, 4)));
            step(Map.of(0, List.of(4, 2), 1, List.of(2, 3), 2, List.of(3, 4)));
            int after = acknowledged.size();
            await("writes to go on").atMost(Duration.ofMillis(WAIT_MS)).until(() -> acknowledged.size() > after + 100);
        } finally {
            producing.set(false);
            writer.join(WAIT_MS);
            sampling.set(false);
            sampler.join(WAIT_MS);
        }
        assertEquals(List.of(), failures);
        assertTrue(peak[0] < 2.5 * RATE, "a measured throttled rate reached " + (long) peak[0] + " bytes/s");
        long throttledBytes = cluster.brokerIds().stream().mapToLong(id ->
                cluster.broker(id).replicaManager().throttles().follower().bytes()).sum();
        assertTrue(throttledBytes > 0, "the moves were throttled");

        List<String> read = InProcessCluster.readValues(cluster.bootstrap(), List.of(new TopicPartition("moving", 0),
                new TopicPartition("moving", 1), new TopicPartition("moving", 2)), acknowledged.size(), WAIT_MS);
        assertEquals(read.size(), Set.copyOf(read).size(), "no record twice");
        assertTrue(Set.copyOf(read).containsAll(acknowledged), "every acknowledged record is there: "
                + acknowledged.size() + " acknowledged, " + read.size() + " read");
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One throttled reassignment of topic "moving", as --execute --throttle then --verify run it. */
    private void step(Map<Integer, List<Integer>> targets) throws Exception {
        Map<TopicPartition, List<Integer>> plan = new LinkedHashMap<>();
        targets.forEach((partition, replicas) -> plan.put(new TopicPartition("moving", partition), replicas));
        Map<TopicPartition, List<Integer>> current = new LinkedHashMap<>();
        for (TopicPartition tp : plan.keySet()) {
            current.put(tp, replicaIds(describe("moving").get(tp.partition())));
        }
        throttle(current, plan);
        reassign(plan);
        throttleNothingElse();
    }

    /** Sets the rates and replica lists kafka-reassign-partitions --execute --throttle would set. */
    private void throttle(Map<TopicPartition, List<Integer>> current, Map<TopicPartition, List<Integer>> plan)
            throws Exception {
        Map<String, List<String>> leaders = new HashMap<>();
        Map<String, List<String>> followers = new HashMap<>();
        Set<Integer> brokers = new TreeSet<>();
        plan.forEach((tp, target) -> {
            List<Integer> existing = current.get(tp);
            existing.forEach(b -> leaders.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition() + ":" + b));
            target.stream().filter(b -> !existing.contains(b)).forEach(b ->
                    followers.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition() + ":" + b));
            brokers.addAll(existing);
            brokers.addAll(target);
        });
        Map<ConfigResource, Collection<AlterConfigOp>> changes = new HashMap<>();
        leaders.forEach((topic, items) -> changes.put(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(
                set("leader.replication.throttled.replicas", String.join(",", items)),
                set("follower.replication.throttled.replicas",
                        String.join(",", followers.getOrDefault(topic, List.of()))))));
        for (int broker : brokers) {
            changes.put(new ConfigResource(ConfigResource.Type.BROKER, String.valueOf(broker)), List.of(
                    set(ReplicationQuotaConfig.LEADER_RATE, String.valueOf(RATE)),
                    set(ReplicationQuotaConfig.FOLLOWER_RATE, String.valueOf(RATE))));
        }
        admin.incrementalAlterConfigs(changes).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        for (int broker : brokers) {
            await("broker " + broker + " to see the throttle").atMost(Duration.ofMillis(WAIT_MS)).until(() ->
                    cluster.broker(broker).replicaManager().throttles().follower().bound() == RATE);
        }
    }

    /** Removes every throttle, as --verify does once the reassignment is done. */
    private void throttleNothingElse() throws Exception {
        Map<ConfigResource, Collection<AlterConfigOp>> changes = new HashMap<>();
        for (int broker : cluster.brokerIds()) {
            changes.put(new ConfigResource(ConfigResource.Type.BROKER, String.valueOf(broker)), List.of(
                    delete(ReplicationQuotaConfig.LEADER_RATE), delete(ReplicationQuotaConfig.FOLLOWER_RATE)));
        }
        admin.incrementalAlterConfigs(changes).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        for (int broker : cluster.brokerIds()) {
            await("broker " + broker + " to drop the throttle").atMost(Duration.ofMillis(WAIT_MS)).until(() ->
                    cluster.broker(broker).replicaManager().throttles().follower().bound()
                            == ReplicationQuotaConfig.UNLIMITED);
        }
    }

    private void reassign(Map<TopicPartition, List<Integer>> plan) throws Exception {
        Map<TopicPartition, Optional<NewPartitionReassignment>> request = new HashMap<>();
        plan.forEach((tp, replicas) -> request.put(tp, Optional.of(new NewPartitionReassignment(replicas))));
        admin.alterPartitionReassignments(request).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        await("the reassignment to " + plan).atMost(Duration.ofMillis(WAIT_MS)).pollInterval(Duration.ofMillis(50))
                .until(() -> admin.listPartitionReassignments().reassignments().get().isEmpty()
                        && done(plan));
    }

    private boolean done(Map<TopicPartition, List<Integer>> plan) throws Exception {
        for (Map.Entry<TopicPartition, List<Integer>> e : plan.entrySet()) {
            TopicPartitionInfo info = describe(e.getKey().topic()).get(e.getKey().partition());
            if (!replicaIds(info).equals(e.getValue()) || info.isr().size() != e.getValue().size()) {
                return false;
            }
        }
        return true;
    }

    private List<TopicPartitionInfo> describe(String topic) throws Exception {
        TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                .get(WAIT_MS, TimeUnit.MILLISECONDS).get(topic);
        return description.partitions();
    }

    private static List<Integer> replicaIds(TopicPartitionInfo partition) {
        return partition.replicas().stream().map(Node::id).toList();
    }

    private static AlterConfigOp set(String key, String value) {
        return new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET);
    }

    private static AlterConfigOp delete(String key) {
        return new AlterConfigOp(new ConfigEntry(key, ""), AlterConfigOp.OpType.DELETE);
    }
}
