package io.kraft.broker.group;

import io.kraft.broker.group.consumer.Assignment;
import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.broker.group.consumer.ConsumerHeartbeat;
import io.kraft.broker.group.consumer.ConsumerHeartbeat.Result;
import io.kraft.broker.group.consumer.TopicCatalog;
import io.kraft.broker.group.consumer.TopicInfo;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The set-up of the consumer-protocol coordinator tests: one group, a manual clock, an in-memory
 * {@code __consumer_offsets} and a topic {@code events} of 6 partitions; coordinators made here lead partition 0,
 * loaded from the log, and requests are run to their answer.
 */
final class ConsumerGroupFixture {
    static final String TOPIC_NAME = "events";

    final ManualTimer timer = new ManualTimer(1_000_000L);
    private final String groupId;
    private final TopicInfo topic;
    private InMemoryCoordinatorLog log = new InMemoryCoordinatorLog();
    private final TopicCatalog topics = new TopicCatalog() {
        @Override
        public TopicInfo byName(String name) {
            return name.equals(TOPIC_NAME) ? topic : null;
        }

        @Override
        public Collection<TopicInfo> all() {
            return List.of(topic);
        }
    };

    ConsumerGroupFixture(String groupId, UUID topicId) {
        this.groupId = groupId;
        this.topic = new TopicInfo(topicId, TOPIC_NAME, 6);
    }

    InMemoryCoordinatorLog log() {
        return log;
    }

    /** Later coordinators start from an empty log. */
    void freshLog() {
        log = new InMemoryCoordinatorLog();
    }

    /** A coordinator of the log (a new leader replays what earlier ones wrote). */
    GroupCoordinator newCoordinator(ConsumerGroupConfig consumerConfig) {
        GroupConfig config = new GroupConfig(6_000, 1_800_000, 0, 1_000, 4_096, 600_000L, 600_000, 1, (short) 1,
                104_857_600, 5_000);
        GroupCoordinator created = new GroupCoordinator(config, consumerConfig, topics, timer, log, p -> true);
        created.onElected(0, 0);
        timer.runPending();
        return created;
    }

    /** A ConsumerGroupHeartbeat subscribing to events; a joining one (epoch 0) also gives its rebalance timeout. */
    Result consumerHeartbeat(GroupCoordinator coordinator, String memberId, String instanceId, String assignor,
                             int epoch, Assignment owned) {
        AtomicReference<Result> result = new AtomicReference<>();
        coordinator.consumerGroupHeartbeat(new ConsumerHeartbeat(groupId, memberId, epoch, instanceId, null,
                epoch == 0 ? 300_000 : -1, epoch == 0 ? List.of(TOPIC_NAME) : null, null, assignor, owned, "client",
                "/127.0.0.1"), result::set);
        timer.runPending();
        return result.get();
    }
}
