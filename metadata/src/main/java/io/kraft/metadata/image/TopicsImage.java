package io.kraft.metadata.image;

import java.util.Map;
import java.util.UUID;

/** All topics, by id and by name (two views of the same topics). */
public record TopicsImage(Map<UUID, TopicImage> topicsById, Map<String, TopicImage> topicsByName) {
    public static final TopicsImage EMPTY = new TopicsImage(Map.of(), Map.of());

    public TopicsImage {
        topicsById = Map.copyOf(topicsById);
        topicsByName = Map.copyOf(topicsByName);
        if (topicsById.size() != topicsByName.size()) {
            throw new IllegalArgumentException("Topics by id (" + topicsById.size() + ") and by name ("
                    + topicsByName.size() + ") differ");
        }
    }

    public TopicImage topic(UUID topicId) {
        return topicsById.get(topicId);
    }

    public TopicImage topic(String name) {
        return topicsByName.get(name);
    }

    /** The partition, or null if the topic or partition does not exist. */
    public PartitionRegistration partition(UUID topicId, int partitionId) {
        TopicImage topic = topicsById.get(topicId);
        return topic == null ? null : topic.partition(partitionId);
    }
}
