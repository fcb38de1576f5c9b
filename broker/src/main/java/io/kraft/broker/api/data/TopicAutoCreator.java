package io.kraft.broker.api.data;

import io.kraft.broker.protocol.LogText;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.CreateTopicRequest;
import io.kraft.storage.errors.Errors;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates topics that Metadata requests name but that do not exist (auto.create.topics.enable), with this
 * broker's num.partitions and default.replication.factor, as a Kafka broker does. It does not wait: the client
 * is answered LEADER_NOT_AVAILABLE and asks again. One creation per name is in flight at a time.
 */
public final class TopicAutoCreator {
    private static final Logger LOG = LoggerFactory.getLogger(TopicAutoCreator.class);

    private final Controller controller;
    private final int numPartitions;
    private final int replicationFactor;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

    public TopicAutoCreator(Controller controller, int numPartitions, int replicationFactor) {
        this.controller = Objects.requireNonNull(controller, "controller");
        this.numPartitions = numPartitions;
        this.replicationFactor = replicationFactor;
    }

    /** Asks the controller to create the topic with this broker's defaults, unless that is already under way. */
    public void create(String topicName) {
        if (!inFlight.add(topicName)) {
            return;
        }
        LOG.info("Auto-creating topic {}", LogText.of(topicName));
        controller.createTopic(CreateTopicRequest.of(topicName, numPartitions, replicationFactor)).whenComplete((created, error) -> {
            inFlight.remove(topicName);
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause instanceof ControllerException ce && ce.error() == Errors.TOPIC_ALREADY_EXISTS) {
                return; // another request created it first
            }
            if (cause != null) {
                LOG.warn("Could not auto-create topic {}: {}", LogText.of(topicName), cause.getMessage());
            }
        });
    }

    /** Whether a creation of this topic is under way. */
    public boolean isCreating(String topicName) {
        return inFlight.contains(topicName);
    }
}
