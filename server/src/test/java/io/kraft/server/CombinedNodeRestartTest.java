package io.kraft.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.ClientRecords;
import io.kraft.server.TestNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node closed cleanly and started again on its directories still has every acknowledged record. */
class CombinedNodeRestartTest {
    @TempDir
    Path dir;

    @Test
    void everyRecordSurvivesACleanRestart() throws Exception {
        int count = 10_000;
        int[] partitions;
        try (TestNode node = new TestNode(dir, Map.of()).start()) {
            node.createTopic("durable", 3, Map.of("segment.bytes", "65536"));
            try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(node.bootstrap(), Map.of())) {
                partitions = ClientRecords.produce(producer, "durable", count);
            }
            node.stop();
            Path logs = dir.resolve("logs");
            assertTrue(Files.exists(logs.resolve(".kraft_cleanshutdown")), "clean shutdown marker written");
            assertTrue(Files.readString(logs.resolve("replication-offset-checkpoint")).contains("durable 0"),
                    "high watermarks checkpointed");
            assertTrue(Files.exists(logs.resolve("recovery-point-offset-checkpoint")));

            node.start();
            try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(node.bootstrap(), Map.of())) {
                ClientRecords.consumeAndVerify(consumer, "durable", 3, count, partitions);
                List<TopicPartition> all = List.of(new TopicPartition("durable", 0), new TopicPartition("durable", 1),
                        new TopicPartition("durable", 2));
                long end = consumer.endOffsets(all).values().stream().mapToLong(Long::longValue).sum();
                assertEquals(count, end, "high watermarks cover every record after the restart");
            }
        }
    }
}
