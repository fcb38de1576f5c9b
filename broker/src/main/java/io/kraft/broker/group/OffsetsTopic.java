package io.kraft.broker.group;

import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.image.MetadataImage;
import java.util.function.Supplier;

/**
 * The internal compacted topic {@code __consumer_offsets}: created through the controller on the first
 * FindCoordinator that needs it, with offsets.topic.num.partitions partitions and
 * offsets.topic.replication.factor replicas (capped to the live brokers, with a warning).
 */
public final class OffsetsTopic {
    /** The topic's name. */
    public static final String NAME = "__consumer_offsets";

    private final InternalTopic topic;

    public OffsetsTopic(Controller controller, Supplier<MetadataImage> images, GroupConfig config) {
        this.topic = new InternalTopic(controller, images, new InternalTopic.Spec(NAME, config.offsetsTopicPartitions(),
                config.offsetsTopicReplicationFactor(), GroupConfig.OFFSETS_TOPIC_REPLICATION_FACTOR,
                config.offsetsTopicSegmentBytes()));
    }

    /** Asks the controller to create the topic unless it exists or a creation is already under way. */
    public void createIfAbsent() {
        topic.createIfAbsent();
    }
}
