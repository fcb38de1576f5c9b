package io.kraft.broker.group;

import java.util.Objects;

/** A committed offset's topic and partition, named as clients send them (not validated as a log directory). */
public record OffsetKey(String topic, int partition) implements Comparable<OffsetKey> {
    public OffsetKey {
        Objects.requireNonNull(topic, "topic");
    }

    @Override
    public int compareTo(OffsetKey other) {
        int byTopic = topic.compareTo(other.topic);
        return byTopic != 0 ? byTopic : Integer.compare(partition, other.partition);
    }

    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
