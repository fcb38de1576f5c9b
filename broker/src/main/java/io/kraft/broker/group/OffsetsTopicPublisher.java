package io.kraft.broker.group;

import io.kraft.metadata.image.LocalReplicaChanges;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TopicImage;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Tells the coordinator which {@code __consumer_offsets} partitions this broker now leads (load them) or no
 * longer leads (drop them), from each committed metadata change. Register it after the replica manager's
 * publisher, so a partition's log exists when the coordinator starts reading it.
 */
public final class OffsetsTopicPublisher implements MetadataPublisher {
    private final int brokerId;
    private final GroupCoordinatorService coordinator;

    public OffsetsTopicPublisher(int brokerId, GroupCoordinatorService coordinator) {
        this.brokerId = brokerId;
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public void publish(MetadataDelta delta, MetadataImage image) {
        UUID before = topicId(delta.topicsDelta().image().topic(OffsetsTopic.NAME));
        TopicImage now = image.topics().topic(OffsetsTopic.NAME);
        if (now != null && !now.partitions().isEmpty()) {
            coordinator.partitionCount(now.partitions().size());
        }
        LocalReplicaChanges changes = delta.topicsDelta().localChanges(brokerId);
        for (Map.Entry<TopicIdPartition, PartitionRegistration> leader : changes.leaders().entrySet()) {
            if (now != null && leader.getKey().topicId().equals(now.id())) {
                coordinator.onElected(leader.getKey().partition(), leader.getValue().leaderEpoch());
            }
        }
        for (TopicIdPartition follower : changes.followers().keySet()) {
            if (now != null && follower.topicId().equals(now.id())) {
                coordinator.onResigned(follower.partition());
            }
        }
        for (TopicIdPartition deleted : changes.deletes()) {
            if (deleted.topicId().equals(before) || (now != null && deleted.topicId().equals(now.id()))) {
                coordinator.onResigned(deleted.partition());
            }
        }
    }

    private static UUID topicId(TopicImage topic) {
        return topic == null ? null : topic.id();
    }
}
