package io.kraft.broker.api;

import io.kraft.storage.log.TopicPartition;
import java.util.Optional;

/** Turns a request's topic name and partition index into a topic partition, when they can name one. */
public final class TopicPartitions {
    private TopicPartitions() {
    }

    /** Empty for a null or invalid topic name or a negative index (the request gets UNKNOWN_TOPIC_OR_PARTITION). */
    public static Optional<TopicPartition> of(String topic, int partition) {
        try {
            return Optional.of(new TopicPartition(topic, partition));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
