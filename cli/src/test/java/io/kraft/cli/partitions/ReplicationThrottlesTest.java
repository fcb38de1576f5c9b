package io.kraft.cli.partitions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The throttled replica lists and brokers of a plan, as Kafka's tool computes them. */
class ReplicationThrottlesTest {
    private static final TopicPartition T0 = new TopicPartition("t", 0);
    private static final TopicPartition T1 = new TopicPartition("t", 1);
    private static final TopicPartition U0 = new TopicPartition("u", 0);

    @Test
    void leadersAreTheCurrentReplicasAndFollowersTheAddedOnesOfMovingPartitionsOnly() {
        Map<TopicPartition, List<Integer>> current = Map.of(T0, List.of(1, 2), T1, List.of(2, 3), U0, List.of(1));
        Map<TopicPartition, List<Integer>> plan = Map.of(T0, List.of(3, 4), T1, List.of(2, 3), U0, List.of(1, 2, 3));
        assertEquals(Map.of("t", List.of("0:1,0:2", "0:3,0:4"), "u", List.of("0:1", "0:2,0:3")),
                ReplicationThrottles.topicLists(current, plan));
        assertEquals(Set.of(1, 2, 3, 4), ReplicationThrottles.brokers(current, plan));
    }

    @Test
    void shrinkingAPartitionThrottlesItsLeadersAndAddsNoFollower() {
        Map<TopicPartition, List<Integer>> current = Map.of(T0, List.of(1, 2, 3));
        assertEquals(Map.of("t", List.of("0:1,0:2,0:3", "")),
                ReplicationThrottles.topicLists(current, Map.of(T0, List.of(1, 2))));
    }
}
