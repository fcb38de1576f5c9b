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
 * A compacted internal topic a coordinator keeps its state in, created through the controller on first use with its
 * configured partitions and replication factor (capped to the live brokers, with a warning, as Kafka does).
 */
public final class InternalTopic {
    private static final Logger LOG = LoggerFactory.getLogger(InternalTopic.class);

    /** How to create the topic; {@code replicationFactorKey} names the setting in the warning. */
    public record Spec(String name, int partitions, int replicationFactor, String replicationFactorKey,
                       int segmentBytes) {
    }

    private final Controller controller;
    private final Supplier<MetadataImage> images;
    private final Spec spec;
    private final AtomicBoolean creating = new AtomicBoolean();

    public InternalTopic(Controller controller, Supplier<MetadataImage> images, Spec spec) {
        this.controller = Objects.requireNonNull(controller, "controller");
        this.images = Objects.requireNonNull(images, "images");
        this.spec = Objects.requireNonNull(spec, "spec");
    }

    public String name() {
        return spec.name();
    }

    /** Asks the controller to create the topic unless it exists or a creation is already under way. */
    public void createIfAbsent() {
        MetadataImage image = images.get();
        String name = spec.name();
        if (image.topics().topic(name) != null || !creating.compareAndSet(false, true)) {
            return;
        }
        int liveBrokers = image.cluster().unfencedBrokerIds().size();
        int replicationFactor = Math.min(spec.replicationFactor(), Math.max(liveBrokers, 1));
        if (replicationFactor < spec.replicationFactor()) {
            LOG.warn("Creating {} with replication factor {} instead of {} ({}): only {} brokers are live", name,
                    replicationFactor, spec.replicationFactor(), spec.replicationFactorKey(), liveBrokers);
        }
        Map<String, String> configs = Map.of(
                "cleanup.policy", "compact",
                "segment.bytes", Integer.toString(spec.segmentBytes()),
                "compression.type", "producer");
        controller.createTopic(new CreateTopicRequest(name, spec.partitions(), replicationFactor,
                Map.of(), configs)).whenComplete((created, failure) -> {
                    creating.set(false);
                    if (failure == null) {
                        LOG.info("Created {} with {} partitions and replication factor {}", name,
                                created.numPartitions(), created.replicationFactor());
                        return;
                    }
                    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                    if (!(cause instanceof ControllerException ce && ce.apiError().error() == Errors.TOPIC_ALREADY_EXISTS)) {
                        LOG.warn("Could not create {}: {}", name, cause.toString());
                    }
                });
    }
}
