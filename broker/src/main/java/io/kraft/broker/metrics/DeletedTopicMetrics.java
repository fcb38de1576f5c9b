package io.kraft.broker.metrics;

import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.TopicImage;
import java.util.UUID;

/** Drops a topic's meters when the metadata log deletes the topic, so topic churn does not grow the metrics. */
public final class DeletedTopicMetrics implements MetadataPublisher {
    private final BrokerTopicMetrics topicMetrics;

    public DeletedTopicMetrics(BrokerTopicMetrics topicMetrics) {
        this.topicMetrics = topicMetrics;
    }

    @Override
    public void publish(MetadataDelta delta, MetadataImage image) {
        for (UUID deleted : delta.topicsDelta().deletedTopicIds()) {
            TopicImage topic = delta.topicsDelta().image().topic(deleted);
            if (topic != null) {
                topicMetrics.removeTopic(topic.name());
            }
        }
    }

    @Override
    public String name() {
        return "DeletedTopicMetrics";
    }
}
