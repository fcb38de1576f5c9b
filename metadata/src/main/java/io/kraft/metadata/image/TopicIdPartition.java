package io.kraft.metadata.image;

import java.util.Objects;
import java.util.UUID;

/** A partition named by its topic's id and its index. */
public record TopicIdPartition(UUID topicId, int partition) {
    public TopicIdPartition {
        Objects.requireNonNull(topicId, "topicId");
    }
}
