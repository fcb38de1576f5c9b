package io.kraft.broker.api.txn;

import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.image.TransactionMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** How the transactional APIs show a transaction's partitions: by topic name, sorted; deleted topics left out. */
final class TransactionListing {
    private TransactionListing() {
    }

    static Map<String, List<Integer>> partitionsByTopic(MetadataImage image, TransactionMetadata txn) {
        Map<String, List<Integer>> byTopic = new TreeMap<>();
        for (TopicIdPartition partition : txn.partitions()) {
            TopicImage topic = image.topics().topic(partition.topicId());
            if (topic != null) {
                byTopic.computeIfAbsent(topic.name(), t -> new ArrayList<>()).add(partition.partition());
            }
        }
        byTopic.values().forEach(ids -> ids.sort(Integer::compare));
        return byTopic;
    }
}
