package io.kraft.cli.partitions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsResult;
import org.apache.kafka.clients.admin.ForwardingAdmin;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/**
 * The throttled replica lists and brokers of a plan, as Kafka's tool computes them, and the wait for brokers to report
 * the alter-log-dirs rate before a move is asked for.
 */
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
    void theAlterLogDirsRateIsAwaitedUntilEachBrokerReportsIt() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        // Broker 1 reports the rate from the third answer on, broker 2 never does.
        try (Admin admin = describing(resource -> resource.name().equals("1") && asked.incrementAndGet() >= 3
                ? "1000" : null)) {
            assertEquals(Set.of(), ReplicationThrottles.awaitAlterLogDirs(admin, List.of(1), 1000, 30_000));
            assertEquals(3, asked.get(), "asked until reported");
            assertEquals(Set.of(2), ReplicationThrottles.awaitAlterLogDirs(admin, List.of(1, 2), 1000, 300),
                    "broker 2 never reports it");
            assertEquals(Set.of(1), ReplicationThrottles.awaitAlterLogDirs(admin, List.of(1), 5, 300),
                    "another rate is not the one set");
        }
    }

    /** An admin client whose DescribeConfigs answers the alter-log-dirs rate {@code value} gives (null: unset). */
    private static Admin describing(Function<ConfigResource, String> value) {
        // Never connects: only DescribeConfigs is called, and it is answered here.
        return new ForwardingAdmin(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1")) {
            @Override
            public DescribeConfigsResult describeConfigs(Collection<ConfigResource> resources) {
                Map<ConfigResource, KafkaFuture<Config>> answers = new HashMap<>();
                for (ConfigResource resource : resources) {
                    String rate = value.apply(resource);
                    answers.put(resource, KafkaFuture.completedFuture(new Config(rate == null ? List.of()
                            : List.of(new ConfigEntry(ReplicationThrottles.ALTER_LOG_DIRS_RATE, rate)))));
                }
                return new DescribeConfigsResult(answers) {
                };
            }
        };
    }

    @Test
    void shrinkingAPartitionThrottlesItsLeadersAndAddsNoFollower() {
        Map<TopicPartition, List<Integer>> current = Map.of(T0, List.of(1, 2, 3));
        assertEquals(Map.of("t", List.of("0:1,0:2,0:3", "")),
                ReplicationThrottles.topicLists(current, Map.of(T0, List.of(1, 2))));
    }
}
