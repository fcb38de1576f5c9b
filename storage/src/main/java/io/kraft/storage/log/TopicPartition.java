package io.kraft.storage.log;

import java.util.Optional;

/** A topic partition as the storage layer names it: the directory {@code <topic>-<partition>}. */
public record TopicPartition(String topic, int partition) {
    /**
     * The Raft metadata log, partition 0 of the topic {@code __cluster_metadata} as Kafka names it: its directory
     * {@code __cluster_metadata-0} sits in metadata.log.dir, which may be a log directory too, beside the partition
     * logs, but it is not one of them and no log manager opens, creates or deletes it.
     */
    public static final TopicPartition CLUSTER_METADATA = new TopicPartition("__cluster_metadata", 0);

    public TopicPartition {
        if (topic == null || topic.isEmpty() || topic.contains(" ") || topic.contains("/")) {
            throw new IllegalArgumentException("invalid topic name '" + topic + "'");
        }
        if (partition < 0) {
            throw new IllegalArgumentException("partition must not be negative, got " + partition);
        }
    }

    /** The partition directory name. */
    public String directoryName() {
        return topic + "-" + partition;
    }

    /** Parses {@code <topic>-<partition>}; empty for names that are not partition directories. */
    public static Optional<TopicPartition> fromDirectoryName(String name) {
        int dash = name.lastIndexOf('-');
        if (dash <= 0 || dash == name.length() - 1) {
            return Optional.empty();
        }
        String digits = name.substring(dash + 1);
        for (int i = 0; i < digits.length(); i++) {
            if (!Character.isDigit(digits.charAt(i))) {
                return Optional.empty();
            }
        }
        try {
            return Optional.of(new TopicPartition(name.substring(0, dash), Integer.parseInt(digits)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return directoryName();
    }
}
