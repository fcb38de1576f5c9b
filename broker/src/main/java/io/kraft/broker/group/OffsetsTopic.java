package io.kraft.broker.group;

import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.CreateTopicRequest;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.storage.errors.Errors;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The internal compacted topic {@code __consumer_offsets}: created through the controller on the first
 * FindCoordinator that needs it, with offsets.topic.num.partitions partitions and
 * offsets.topic.replication.factor replicas (capped to the live brokers, with a warning).
 */
public final class OffsetsTopic {
    /** The topic's name. */
    public static final String NAME = "__consumer_offsets";
    private static final Logger LOG = LoggerFactory.getLogger(OffsetsTopic.class);

    private final Controller controller;
    private final Supplier<MetadataImage> images;
    private final GroupConfig config;
    private final AtomicBoolean creating = new AtomicBoolean();

    public OffsetsTopic(Controller controller, Supplier<MetadataImage> images, GroupConfig config) {
        this.controller = Objects.requireNonNull(controller, "controller");
        this.images = Objects.requireNonNull(images, "images");
        this.config = Objects.requireNonNull(config, "config");
    }

    /** Asks the controller to create the topic unless it exists or a creation is already under way. */
    public void createIfAbsent() {
        MetadataImage image = images.get();
        if (image.topics().topic(NAME) != null || !creating.compareAndSet(false, true)) {
            return;
        }
        int liveBrokers = image.cluster().unfencedBrokerIds().size();
        int replicationFactor = Math.min(config.offsetsTopicReplicationFactor(), Math.max(liveBrokers, 1));
        if (replicationFactor < config.offsetsTopicReplicationFactor()) {
            LOG.warn("Creating {} with replication factor {} instead of {} ({}): only {} brokers are live", NAME,
                    replicationFactor, config.offsetsTopicReplicationFactor(),
                    GroupConfig.OFFSETS_TOPIC_REPLICATION_FACTOR, liveBrokers);
        }
        Map<String, String> configs = Map.of(
                "cleanup.policy", "compact",
                "segment.bytes", Integer.toString(config.offsetsTopicSegmentBytes()),
                "compression.type", "producer");
        controller.createTopic(new CreateTopicRequest(NAME, config.offsetsTopicPartitions(), replicationFactor,
                Map.of(), configs)).whenComplete((created, failure) -> {
                    creating.set(false);
                    if (failure == null) {
                        LOG.info("Created {} with {} partitions and replication factor {}", NAME,
                                created.numPartitions(), created.replicationFactor());
                        return;
                    }
                    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                    if (!(cause instanceof ControllerException ce && ce.apiError().error() == Errors.TOPIC_ALREADY_EXISTS)) {
                        LOG.warn("Could not create {}: {}", NAME, cause.toString());
                    }
                });
    }
}
