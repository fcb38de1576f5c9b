package io.kraft.broker.fetch;

import java.util.Objects;
import java.util.UUID;

/**
 * How a fetch names a partition: by topic name before Fetch v13, by topic id from v13 (the other part is
 * then the zero id or null). Sessions are keyed by it, so a session never mixes the two.
 */
public record FetchPartitionKey(UUID topicId, String topic, int partition) {
    public static final UUID ZERO_ID = new UUID(0L, 0L);

    public FetchPartitionKey {
        Objects.requireNonNull(topicId, "topicId");
    }

    public static FetchPartitionKey byName(String topic, int partition) {
        return new FetchPartitionKey(ZERO_ID, Objects.requireNonNull(topic, "topic"), partition);
    }

    public static FetchPartitionKey byId(UUID topicId, int partition) {
        return new FetchPartitionKey(topicId, null, partition);
    }

    public boolean usesTopicId() {
        return topic == null;
    }
}
