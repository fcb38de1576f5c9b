package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeReplicaLogDirsResult.ReplicaLogDirInfo;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code reassign-partitions --execute --replica-alter-log-dirs-throttle}: the move between log directories is asked
 * for only once the broker reports the throttle, so the copy is throttled from its first byte.
 */
class ReassignLogDirThrottleCommandTest {
    private static final long WAIT_MS = 60_000;
    private static final TopicPartitionReplica REPLICA = new TopicPartitionReplica("moving", 0, 1);

    @TempDir
    Path dir;
    private ClientNode node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void theMoveStartsOnlyOnceTheBrokerReportsTheThrottle() throws Exception {
        Path dirA = dir.resolve("a").toAbsolutePath();
        Path dirB = dir.resolve("b").toAbsolutePath();
        node = new ClientNode(dir.resolve("node"), Map.of("log.dirs", dirA + "," + dirB));
        assertEquals(0, CliRun.of("topics", "--bootstrap-server", node.bootstrap(), "--create", "--topic", "moving",
                "--partitions", "1").exitCode());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap()))) {
            produce(2_000, 200);
            String from = info(admin).getCurrentReplicaLogDir();
            Path to = Path.of(from).equals(dirA) ? dirB : dirA;
            Path plan = Files.writeString(dir.resolve("plan.json"), "{\"version\":1,\"partitions\":[{\"topic\":"
                    + "\"moving\",\"partition\":0,\"replicas\":[1],\"log_dirs\":[\"" + to + "\"]}]}");

            CliRun run = CliRun.of("reassign-partitions", "--bootstrap-server", node.bootstrap(), "--execute",
                    "--replica-alter-log-dirs-throttle", "1000", "--reassignment-json-file", plan.toString());
            assertEquals(0, run.exitCode(), run.err());
            assertTrue(run.out().contains("The replica-alter-dir throttle limit was set to 1000 B/s"), run.out());

            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
            assertEquals("1000", admin.describeConfigs(List.of(broker)).all().get(WAIT_MS, TimeUnit.MILLISECONDS)
                    .get(broker).get("replica.alter.log.dirs.io.max.bytes.per.second").value());
            ReplicaLogDirInfo moving = info(admin);
            assertEquals(to.toString(), moving.getFutureReplicaLogDir(), "still copying, throttled: " + moving);
            assertTrue(moving.getFutureReplicaOffsetLag() > 0, String.valueOf(moving));
        }
    }

    private void produce(int records, int size) throws Exception {
        Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>("moving", new byte[size]));
            }
            producer.flush();
        }
    }

    private static ReplicaLogDirInfo info(Admin admin) throws Exception {
        return admin.describeReplicaLogDirs(List.of(REPLICA)).all().get(WAIT_MS, TimeUnit.MILLISECONDS).get(REPLICA);
    }
}
