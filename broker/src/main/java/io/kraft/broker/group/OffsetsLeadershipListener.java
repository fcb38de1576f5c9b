package io.kraft.broker.group;

import io.kraft.broker.replica.PartitionLeadershipListener;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.log.TopicPartition;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Tells a coordinator which partitions of its internal topic ({@code __consumer_offsets} for groups,
 * {@code __share_group_state} for share-partition state) this broker now leads (load them) or no longer leads
 * (drop them), as the replica manager applies each metadata change, so a partition's log is open before its load
 * starts. Keys are placed by the topic's real partition count.
 */
public final class OffsetsLeadershipListener implements PartitionLeadershipListener {
    private final Supplier<MetadataImage> images;
    private final String topicName;
    private final CoordinatorShards coordinator;

    public OffsetsLeadershipListener(Supplier<MetadataImage> images, GroupCoordinatorService coordinator) {
        this(OffsetsTopic.NAME, images, coordinator);
    }

    public OffsetsLeadershipListener(String topicName, Supplier<MetadataImage> images, CoordinatorShards coordinator) {
        this.topicName = Objects.requireNonNull(topicName, "topicName");
        this.images = Objects.requireNonNull(images, "images");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public void onBecomeLeader(TopicPartition partition, int leaderEpoch) {
        if (!partition.topic().equals(topicName)) {
            return;
        }
        TopicImage topic = images.get().topics().topic(topicName);
        if (topic != null && !topic.partitions().isEmpty()) {
            coordinator.partitionCount(topic.partitions().size());
        }
        coordinator.onElected(partition.partition(), leaderEpoch);
    }

    @Override
    public void onResign(TopicPartition partition) {
        if (partition.topic().equals(topicName)) {
            coordinator.onResigned(partition.partition());
        }
    }
}
