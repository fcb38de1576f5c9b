package io.kraft.server.replica;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.quota.ReplicationQuota;
import io.kraft.broker.quota.ReplicationQuotaConfig;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.server.TestNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeReplicaLogDirsResult.ReplicaLogDirInfo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.LogDirNotFoundException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AlterReplicaLogDirs end to end on a node with two log directories, driven by kafka-clients' Admin: a partition moves
 * under a running producer and loses nothing, a move interrupted by a restart completes, an unknown directory is
 * refused, and the alter-log-dirs throttle holds the copy back. After each move the controller's metadata records the
 * replica's new directory (KIP-858's AssignReplicasToDirs).
 */
class LogDirMoveTest {
    private static final long WAIT_MS = TestNode.WAIT_MS;
    private static final String THROTTLE = "replica.alter.log.dirs.io.max.bytes.per.second";
    private static final TopicPartitionReplica REPLICA = new TopicPartitionReplica("moving", 0, 1);

    @TempDir
    Path dir;
    private Path dirA;
    private Path dirB;
    private TestNode node;

    @BeforeEach
    void start() throws Exception {
        dirA = dir.resolve("a").toAbsolutePath();
        dirB = dir.resolve("b").toAbsolutePath();
        node = new TestNode(dir, Map.of("log.dirs", dirA + "," + dirB)).start();
        node.createTopic("moving", 1, Map.of());
        awaitTrue(() -> currentDir() != null, "the broker hosts the partition");
    }

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aPartitionMovesUnderARunningProducerAndKeepsEveryAcknowledgedRecord() throws Exception {
        Path from = currentDir();
        Path to = from.equals(dirA) ? dirB : dirA;
        List<String> acknowledged = new ArrayList<>();
        AtomicBoolean producing = new AtomicBoolean(true);
        Thread producer = new Thread(() -> produceUntilStopped(producing, acknowledged));
        producer.start();
        awaitTrue(() -> acknowledgedCount(acknowledged) > 200, "records acknowledged before the move");
        node.admin().alterReplicaLogDirs(Map.of(REPLICA, to.toString())).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> to.equals(currentDir()) && info().getFutureReplicaLogDir() == null, "the move completes");
        int atMove = acknowledgedCount(acknowledged);
        awaitTrue(() -> acknowledgedCount(acknowledged) > atMove + 200, "records acknowledged after the move");
        producing.set(false);
        producer.join(WAIT_MS);

        Set<String> read = new HashSet<>(consumeAll());
        List<String> lost = new ArrayList<>();
        synchronized (acknowledged) {
            acknowledged.stream().filter(value -> !read.contains(value)).forEach(lost::add);
        }
        assertEquals(List.of(), lost, "every acknowledged record is readable after the move");
        assertTrue(Files.isDirectory(to.resolve("moving-0")), "the log lives in " + to);
        assertFalse(Files.exists(from.resolve("moving-0")), "no log of the partition is left in " + from);
        assertEquals(List.of(), partitionDirs(to, "-future"), "no future log is left");
        assertEquals(1, node.node().replicaManager().describeLogDirs().stream()
                .filter(d -> d.replicas().containsKey(new io.kraft.storage.log.TopicPartition("moving", 0))).count());
        awaitTrue(() -> Optional.of(directoryId(to)).equals(recordedDir()), "the controller records the new directory");
    }

    @Test
    void theControllerFollowsAReplicaMovedThereAndBack() throws Exception {
        Path from = currentDir();
        Path to = from.equals(dirA) ? dirB : dirA;
        produce(100);
        node.admin().alterReplicaLogDirs(Map.of(REPLICA, to.toString())).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> Optional.of(directoryId(to)).equals(recordedDir()), "the controller records " + to);
        node.admin().alterReplicaLogDirs(Map.of(REPLICA, from.toString())).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> Optional.of(directoryId(from)).equals(recordedDir()), "the controller records " + from
                + " again: the earlier directory is not left behind");
        assertEquals(from, currentDir());
    }

    @Test
    void aMoveToAnUnknownDirectoryIsRefusedWithLogDirNotFound() throws Exception {
        Path from = currentDir();
        ExecutionException e = assertThrows(ExecutionException.class, () -> node.admin()
                .alterReplicaLogDirs(Map.of(REPLICA, dir.resolve("nowhere").toString())).all()
                .get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(LogDirNotFoundException.class, e.getCause());
        assertEquals(from, currentDir(), "the replica stays where it was");
        assertEquals(null, info().getFutureReplicaLogDir());
    }

    @Test
    void theThrottleHoldsTheCopyBackAndARestartMidMoveCompletesIt() throws Exception {
        List<String> written = produce(2_000);
        Path from = currentDir();
        Path to = from.equals(dirA) ? dirB : dirA;
        setThrottle("20000");
        node.admin().alterReplicaLogDirs(Map.of(REPLICA, to.toString())).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        ReplicationQuota quota = node.node().replicaManager().throttles().alterLogDirs();
        awaitTrue(() -> quota.heldBackCount() > 0, "the throttle holds the copy back");
        ReplicaLogDirInfo moving = info();
        assertEquals(from.toString(), moving.getCurrentReplicaLogDir());
        assertEquals(to.toString(), moving.getFutureReplicaLogDir(), "DescribeLogDirs shows the future replica");
        assertTrue(moving.getFutureReplicaOffsetLag() > 0, "the future replica lags: " + moving);
        long logBytes = Files.walk(from.resolve("moving-0")).filter(Files::isRegularFile)
                .mapToLong(LogDirMoveTest::size).sum();
        assertTrue(quota.bytes() < logBytes, "throttled: " + quota.bytes() + " of " + logBytes + " bytes copied");

        node.stop();
        assertEquals(1, partitionDirs(to, "-future").size(), "the future log outlives the stop");
        node.start();
        setThrottle(null);
        awaitTrue(() -> to.equals(currentDir()) && info().getFutureReplicaLogDir() == null,
                "the move resumes after the restart and completes");
        assertEquals(written, consumeAll(), "every record is there, in order, after the move");
        assertFalse(Files.exists(from.resolve("moving-0")));
        awaitTrue(() -> Optional.of(directoryId(to)).equals(recordedDir()),
                "a move resumed after a restart is recorded");
    }

    private void setThrottle(String bytesPerSecond) throws Exception {
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
        AlterConfigOp op = bytesPerSecond == null
                ? new AlterConfigOp(new ConfigEntry(THROTTLE, ""), AlterConfigOp.OpType.DELETE)
                : new AlterConfigOp(new ConfigEntry(THROTTLE, bytesPerSecond), AlterConfigOp.OpType.SET);
        node.admin().incrementalAlterConfigs(Map.of(broker, List.of(op))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        long bound = bytesPerSecond == null ? ReplicationQuotaConfig.UNLIMITED : Long.parseLong(bytesPerSecond);
        awaitTrue(() -> node.node().replicaManager().throttles().alterLogDirs().bound() == bound,
                "the broker applies the throttle " + bytesPerSecond);
    }

    /** The directory the controller's metadata records for the replica (KIP-858), if any. */
    private Optional<UUID> recordedDir() {
        MetadataImage image = node.node().metadataImage();
        UUID topicId = image.topics().topic("moving").id();
        return image.topics().partition(topicId, 0).directoryOf(1);
    }

    /** The log directory's id (directory.id, KIP-858), as the broker registered it; log.dirs is dirA,dirB. */
    private UUID directoryId(Path logDir) {
        return node.node().replicaManager().onlineLogDirIds().get(logDir.equals(dirA) ? 0 : 1);
    }

    private ReplicaLogDirInfo info() {
        try {
            return node.admin().describeReplicaLogDirs(List.of(REPLICA)).all().get(WAIT_MS, TimeUnit.MILLISECONDS)
                    .get(REPLICA);
        } catch (Exception e) {
            throw new AssertionError("DescribeReplicaLogDirs failed", e);
        }
    }

    private Path currentDir() {
        String current = info().getCurrentReplicaLogDir();
        return current == null ? null : Path.of(current);
    }

    private static List<Path> partitionDirs(Path logDir, String suffix) throws IOException {
        try (Stream<Path> children = Files.list(logDir)) {
            return children.filter(p -> p.getFileName().toString().startsWith("moving-0")
                    && p.getFileName().toString().endsWith(suffix)).toList();
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int acknowledgedCount(List<String> acknowledged) {
        synchronized (acknowledged) {
            return acknowledged.size();
        }
    }

    private Properties producerConfig() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return props;
    }

    private void produceUntilStopped(AtomicBoolean producing, List<String> acknowledged) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; producing.get(); i++) {
                String value = "record-" + i;
                producer.send(new ProducerRecord<>("moving", 0, null, value), (metadata, error) -> {
                    if (error == null) {
                        synchronized (acknowledged) {
                            acknowledged.add(value);
                        }
                    }
                });
                if (i % 50 == 0) {
                    producer.flush();
                }
            }
            producer.flush();
        }
    }

    private List<String> produce(int count) throws Exception {
        List<String> values = new ArrayList<>();
        String padding = "x".repeat(1000);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                values.add(i + padding);
                producer.send(new ProducerRecord<>("moving", 0, null, i + padding));
            }
            producer.flush();
        }
        return values;
    }

    private List<String> consumeAll() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            TopicPartition tp = new TopicPartition("moving", 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long deadline = System.currentTimeMillis() + WAIT_MS;
            while (consumer.position(tp) < end && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
        }
        return values;
    }
}
