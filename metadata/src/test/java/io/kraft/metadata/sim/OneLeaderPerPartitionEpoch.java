package io.kraft.metadata.sim;

import io.kraft.metadata.image.TopicImage;

/**
 * No two leaders for one partition epoch: across the whole run, a (partition, leader epoch) pair never maps to two
 * different leaders, whether in the committed log or in any controller's image.
 */
final class OneLeaderPerPartitionEpoch implements Invariant {
    private final ImageWatch watch = new ImageWatch();

    @Override
    public void check(SimCluster cluster) {
        watch.forEachChanged(cluster, (controller, previous, image) -> {
            for (TopicImage topic : image.topics().topicsById().values()) {
                topic.partitions().forEach((partitionId, partition) -> cluster.committedLog().noteLeader(
                        "controller " + controller.id + " at offset " + image.offset(), topic.id(), partitionId,
                        partition));
            }
        });
        if (!cluster.committedLog().leaderConflicts().isEmpty()) {
            throw cluster.violation(cluster.committedLog().leaderConflicts().get(0));
        }
    }
}
