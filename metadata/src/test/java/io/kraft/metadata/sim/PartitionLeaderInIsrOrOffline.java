package io.kraft.metadata.sim;

import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;

/**
 * Every partition in every controller's committed image has a leader in its ISR, or is offline (leader -1). Each
 * partition change names leader and ISR together, so this holds at every offset, even inside a batch.
 */
final class PartitionLeaderInIsrOrOffline implements Invariant {
    private final ImageWatch watch = new ImageWatch();

    @Override
    public void check(SimCluster cluster) {
        watch.forEachChanged(cluster, (controller, previous, image) ->
                check(cluster, "controller " + controller.id, image));
    }

    private static void check(SimCluster cluster, String where, MetadataImage image) {
        for (TopicImage topic : image.topics().topicsById().values()) {
            topic.partitions().forEach((partitionId, partition) -> {
                if (partition.leader() != PartitionRegistration.NO_LEADER
                        && !partition.isr().contains(partition.leader())) {
                    throw cluster.violation(where + " at offset " + image.offset() + ": partition " + topic.name()
                            + "-" + partitionId + " has leader " + partition.leader() + " outside its ISR "
                            + partition.isr());
                }
            });
        }
    }
}
