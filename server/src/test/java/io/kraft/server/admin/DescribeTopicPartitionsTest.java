package io.kraft.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's Admin client describes topics by name with DescribeTopicPartitions (KIP-966) when the broker offers it:
 * every partition comes back, also when the answer is paged a few partitions at a time across topics, and an
 * unknown topic fails on its own.
 */
class DescribeTopicPartitionsTest {
    private static final long WAIT_MS = 30_000;

    @TempDir
    Path dir;

    @Test
    void topicsAreDescribedInPagesAndCompletely() throws Exception {
        try (TestNode node = new TestNode(dir, Map.of()).start()) {
            node.createTopic("alpha", 5, Map.of());
            node.createTopic("beta", 1, Map.of());
            node.createTopic("gamma", 4, Map.of());
            for (int pageSize : new int[] {2000, 1, 3}) {
                Map<String, TopicDescription> described = node.admin().describeTopics(List.of("gamma", "alpha", "beta"),
                        new DescribeTopicsOptions().partitionSizeLimitPerResponse(pageSize))
                        .allTopicNames().get(WAIT_MS, TimeUnit.MILLISECONDS);
                assertEquals(5, described.get("alpha").partitions().size(), "page size " + pageSize);
                assertEquals(1, described.get("beta").partitions().size(), "page size " + pageSize);
                assertEquals(4, described.get("gamma").partitions().size(), "page size " + pageSize);
                for (TopicDescription topic : described.values()) {
                    assertFalse(topic.isInternal());
                    for (int i = 0; i < topic.partitions().size(); i++) {
                        TopicPartitionInfo partition = topic.partitions().get(i);
                        assertEquals(i, partition.partition(), topic.name() + " in order");
                        assertEquals(1, partition.leader().id());
                        assertEquals(List.of(1), partition.replicas().stream().map(n -> n.id()).toList());
                        assertEquals(List.of(1), partition.isr().stream().map(n -> n.id()).toList());
                        assertTrue(partition.elr().isEmpty());
                    }
                }
            }
            ExecutionException unknown = assertThrows(ExecutionException.class, () -> node.admin()
                    .describeTopics(List.of("alpha", "missing")).topicNameValues().get("missing")
                    .get(WAIT_MS, TimeUnit.MILLISECONDS));
            assertInstanceOf(UnknownTopicOrPartitionException.class, unknown.getCause());
        }
    }
}
