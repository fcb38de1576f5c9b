package io.kraft.cli.groups;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One {@code --topic} value of a reset: {@code TOPIC} (all its partitions) or {@code TOPIC:P,P,...} (those
 * partitions). Topic names cannot contain ':', so the first one separates the partitions.
 */
public record TopicSelection(String topic, Optional<Set<Integer>> partitions) {
    public TopicSelection {
        partitions = partitions.map(Set::copyOf);
    }

    /** @throws GroupOptionsException naming the value when it is empty or a partition is not a number ≥ 0 */
    public static TopicSelection parse(String text) {
        int colon = text.indexOf(':');
        String topic = colon < 0 ? text : text.substring(0, colon);
        if (topic.isBlank()) {
            throw new GroupOptionsException("Invalid --topic '" + text + "': expected TOPIC or TOPIC:P,P,...");
        }
        if (colon < 0) {
            return new TopicSelection(topic, Optional.empty());
        }
        Set<Integer> partitions = new TreeSet<>();
        for (String part : text.substring(colon + 1).split(",", -1)) {
            try {
                int partition = Integer.parseInt(part.trim());
                if (partition < 0) {
                    throw new NumberFormatException();
                }
                partitions.add(partition);
            } catch (NumberFormatException e) {
                throw new GroupOptionsException("Invalid --topic '" + text + "': '" + part
                        + "' is not a partition number (expected TOPIC:P,P,...)");
            }
        }
        return new TopicSelection(topic, Optional.of(partitions));
    }
}
