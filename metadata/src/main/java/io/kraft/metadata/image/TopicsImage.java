package io.kraft.metadata.image;

import java.util.Map;
import java.util.UUID;

/**
 * All topics, by id and by name (two views of the same topics). The maps are persistent: the image after a delta
 * shares every topic the delta did not touch with the one before, so applying a delta costs what it changed.
 */
public record TopicsImage(Map<UUID, TopicImage> topicsById, Map<String, TopicImage> topicsByName) {
    public static final TopicsImage EMPTY = new TopicsImage(PersistentMaps.empty(), PersistentMaps.empty());

    /** Maps that are persistent already are kept as they are; others are copied once. */
    public TopicsImage {
        topicsById = PersistentMaps.of(topicsById);
        topicsByName = PersistentMaps.of(topicsByName);
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

    /** How many topics there are. */
    public int size() {
        return topicsById.size();
    }
}
