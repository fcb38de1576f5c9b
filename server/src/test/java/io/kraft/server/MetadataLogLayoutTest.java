package io.kraft.server;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.ClientRecords;
import io.kraft.storage.PreviousShutdown;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's layout with metadata.log.dir naming the log directory (as when it is unset): the metadata log in
 * {@code __cluster_metadata-0} beside the partition directories, never loaded, swept or deleted as one of them, and
 * a node laid out the earlier way (the metadata log's files loose in that directory) moved into it on start.
 */
class MetadataLogLayoutTest {
    private static final int RECORDS = 300;

    @TempDir
    Path dir;

    private Path logs() {
        return dir.resolve("logs");
    }

    private TestNode node() throws IOException {
        return new TestNode(dir, Map.of("log.dirs", logs().toString(), "metadata.log.dir", logs().toString()));
    }

    @Test
    void theMetadataLogSitsBesideThePartitionsAndSurvivesRestartsAndTheStraySweep() throws Exception {
        int[] partitions;
        try (TestNode node = node().start()) {
            assertEquals(PreviousShutdown.NONE, node.node().previousShutdown());
            node.createTopic("orders", 3, Map.of());
            try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(node.bootstrap(), Map.of())) {
                partitions = ClientRecords.produce(producer, "orders", RECORDS);
            }
            node.stop();
            assertEquals(Set.of(".kraft_cleanshutdown", "__cluster_metadata-0", "orders-0", "orders-1", "orders-2",
                    "recovery-point-offset-checkpoint", "log-start-offset-checkpoint", "replication-offset-checkpoint"),
                    names(logs()));
            Set<String> metadataLog = names(logs().resolve("__cluster_metadata-0"));
            assertTrue(metadataLog.containsAll(Set.of("00000000000000000000.raftlog", "quorum-state", "snapshots",
                    "controller-state", ".kraft_cleanshutdown")), metadataLog.toString());

            node.start();
            assertEquals(PreviousShutdown.CLEAN, node.node().previousShutdown());
            // The stray sweep runs once the controller has unfenced the restarted broker; a topic created after that
            // proves it has run, since the broker's metadata is then complete.
            node.createTopic("after-restart", 1, Map.of());
            awaitTrue(() -> Files.isDirectory(logs().resolve("after-restart-0")), "the new topic's log");
            try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(node.bootstrap(), Map.of())) {
                ClientRecords.consumeAndVerify(consumer, "orders", 3, RECORDS, partitions);
            }
            assertTrue(Files.isRegularFile(logs().resolve("__cluster_metadata-0/00000000000000000000.raftlog")));
            assertEquals(Set.of("after-restart", "orders"),
                    node.admin().listTopics().names().get(TestNode.WAIT_MS, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void aNodeLaidOutTheEarlierWayIsMovedIntoKafkasLayoutOnStart() throws Exception {
        int[] partitions;
        try (TestNode node = node().start()) {
            node.createTopic("orders", 3, Map.of());
            try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(node.bootstrap(), Map.of())) {
                partitions = ClientRecords.produce(producer, "orders", RECORDS);
            }
            node.stop();
            // What an earlier version left: the same files loose in the log directory, and no marker of its own.
            Path metadataLog = logs().resolve("__cluster_metadata-0");
            Files.delete(metadataLog.resolve(".kraft_cleanshutdown"));
            try (Stream<Path> entries = Files.list(metadataLog)) {
                for (Path entry : entries.toList()) {
                    Files.move(entry, logs().resolve(entry.getFileName()));
                }
            }
            Files.delete(metadataLog);

            node.start();
            assertEquals(PreviousShutdown.UNCLEAN, node.node().previousShutdown(),
                    "an earlier version left no marker in the metadata log, so it was checked as after a crash");
            assertEquals(Set.of("orders"),
                    node.admin().listTopics().names().get(TestNode.WAIT_MS, TimeUnit.MILLISECONDS));
            try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(node.bootstrap(), Map.of())) {
                ClientRecords.consumeAndVerify(consumer, "orders", 3, RECORDS, partitions);
            }
        }
        Set<String> left = names(logs());
        assertTrue(left.contains("__cluster_metadata-0"), left.toString());
        assertFalse(left.stream().anyMatch(name -> name.endsWith(".raftlog") || name.equals("quorum-state")
                || name.equals("controller-state") || name.equals("snapshots")), left.toString());
    }

    private static Set<String> names(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.map(path -> path.getFileName().toString()).collect(Collectors.toSet());
        }
    }
}
