package io.kraft.server.replica;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kraft.broker.replica.ReplicationConfig;
import io.kraft.metadata.BootstrapMetadata;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.FeaturesImage;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.storage.log.LogManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.BrokerIdNotRegisteredException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eligible leader replicas (KIP-966) on a controller and four brokers in this JVM, seen through kafka-clients'
 * {@code Admin.describeTopics} ({@code TopicPartitionInfo.elr()}, {@code lastKnownElr()}): replicas leaving an ISR
 * below min.insync.replicas join the ELR, the high watermark waits while the ISR is that small, a broker restarted
 * after an unclean shutdown is not elected ahead of the ELR member that has the records, and none of the acknowledged
 * records is lost. Then {@code Admin.unregisterBroker} removes a stopped broker.
 */
class EligibleLeaderReplicasEndToEndTest {
    private static final String CLUSTER_ID = "RWxpZ2libGVMZWFkZXJzMQ";
    private static final long WAIT_MS = 30_000;
    private static final String TOPIC = "guarded";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);

    @TempDir
    Path dir;

    private InProcessCluster cluster;

    @AfterEach
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void anElrMemberWithTheRecordsLeadsAndAnUncleanlyRestartedReplicaDoesNot() throws Exception {
        BootstrapMetadata.write(dir.resolve("controller-1"), List.of(MetadataRecords.of(FeatureLevelRecord.newBuilder()
                .setName(FeaturesImage.ELIGIBLE_LEADER_REPLICAS).setLevel(1).build())));
        // Broker 5 holds no replica: it answers Admin while every replica is down.
        cluster = InProcessCluster.start(dir, CLUSTER_ID, List.of(2, 3, 4, 5), Map.of(
                "controller.quorum.election.timeout.ms", "300", "controller.quorum.fetch.timeout.ms", "600",
                ReplicationConfig.REPLICA_FETCH_BACKOFF_MS, "100"), Map.of());
        Admin admin = cluster.admin();
        admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(2, 3, 4)))
                .configs(Map.of("min.insync.replicas", "2")))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitPartition(admin, 2, List.of(2, 3, 4), List.of(), List.of());
        KafkaProducer<String, String> producer = cluster.closeLater(new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap(), ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new StringSerializer()));
        for (int i = 0; i < 10; i++) {
            producer.send(new ProducerRecord<>(TOPIC, 0, "k", "acked-" + i)).get(WAIT_MS, TimeUnit.MILLISECONDS);
        }

        cluster.stopBroker(4);
        awaitPartition(admin, 2, List.of(2, 3), List.of(), List.of());
        cluster.stopBroker(3);
        awaitPartition(admin, 2, List.of(2), List.of(3), List.of());
        // Strict min ISR: an acks=1 record is written but stays above the high watermark, which 3 still covers.
        try (KafkaProducer<String, String> acksOne = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap(), ProducerConfig.ACKS_CONFIG, "1"),
                new StringSerializer(), new StringSerializer())) {
            acksOne.send(new ProducerRecord<>(TOPIC, 0, "k", "unacknowledged")).get(WAIT_MS, TimeUnit.MILLISECONDS);
        }
        assertEquals(10, admin.listOffsets(Map.of(PARTITION, OffsetSpec.latest())).partitionResult(PARTITION)
                .get(WAIT_MS, TimeUnit.MILLISECONDS).offset(), "the high watermark waits for min.insync.replicas");

        cluster.stopBroker(2);
        awaitPartition(admin, -1, List.of(), List.of(2, 3), List.of());

        // Broker 2 comes back after an unclean shutdown (no clean-shutdown marker): it may have lost records, so it
        // leaves the ELR and the partition waits for 3, which has them all.
        Files.deleteIfExists(cluster.logDir(2).resolve(LogManager.CLEAN_SHUTDOWN_FILE));
        cluster.startStoppedBroker(2);
        awaitPartition(admin, -1, List.of(), List.of(3), List.of(2));

        cluster.startStoppedBroker(3);
        awaitPartition(admin, 3, List.of(2, 3), List.of(), List.of());
        assertEquals(List.of("acked-0", "acked-1", "acked-2", "acked-3", "acked-4", "acked-5", "acked-6", "acked-7",
                "acked-8", "acked-9"), InProcessCluster.readValues(cluster.bootstrap(), List.of(PARTITION), 10, WAIT_MS)
                .subList(0, 10), "every acknowledged record survived");

        admin.unregisterBroker(4).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> cluster.broker(2).metadata().image().cluster().broker(4) == null,
                "broker 4's registration to leave the brokers' metadata");
        ExecutionException unknown = assertThrows(ExecutionException.class,
                () -> admin.unregisterBroker(99).all().get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(BrokerIdNotRegisteredException.class, unknown.getCause());
    }

    /** Waits until the partition has this leader (-1: none), ISR, ELR and last-known ELR, as Admin describes it. */
    private static void awaitPartition(Admin admin, int leader, List<Integer> isr, List<Integer> elr,
                                       List<Integer> lastKnownElr) {
        List<Object> expected = List.of(leader, isr, elr, lastKnownElr);
        AtomicReference<Object> last = new AtomicReference<>();
        try {
            awaitTrue(() -> {
                try {
                    TopicPartitionInfo info = admin.describeTopics(List.of(TOPIC)).allTopicNames()
                            .get(WAIT_MS, TimeUnit.MILLISECONDS).get(TOPIC).partitions().get(0);
                    last.set(List.of(info.leader() == null || info.leader().isEmpty() ? -1 : info.leader().id(),
                            ids(info.isr()), ids(info.elr()), ids(info.lastKnownElr())));
                } catch (Exception e) {
                    last.set(e.toString());
                }
                return expected.equals(last.get());
            }, "leader, ISR, ELR and last-known ELR " + expected);
        } catch (Throwable e) {
            throw new AssertionError(e.getMessage() + "; last seen " + last.get(), e);
        }
    }

    private static List<Integer> ids(List<Node> nodes) {
        if (nodes == null) {
            throw new AssertionError("no ELR fields: Admin did not use DescribeTopicPartitions");
        }
        return nodes.stream().map(Node::id).sorted().toList();
    }
}
