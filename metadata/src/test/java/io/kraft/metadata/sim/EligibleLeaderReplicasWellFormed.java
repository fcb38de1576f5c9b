package io.kraft.metadata.sim;

import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicImage;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * KIP-966's shape of every partition in every controller's committed image: ELR and last-known ELR members are
 * replicas, in neither the ISR nor each other, and both lists are empty while the ISR reaches min.insync.replicas.
 * A leader elected from outside the ISR would break {@link PartitionLeaderInIsrOrOffline}; this checks what the ELR
 * promises besides.
 */
final class EligibleLeaderReplicasWellFormed implements Invariant {
    private final ImageWatch watch = new ImageWatch();

    @Override
    public void check(SimCluster cluster) {
        watch.forEachChanged(cluster, (controller, previous, image) ->
                check(cluster, "controller " + controller.id, image));
    }

    private static void check(SimCluster cluster, String where, MetadataImage image) {
        for (TopicImage topic : image.topics().topicsById().values()) {
            int minIsr = minIsr(image, topic.name());
            topic.partitions().forEach((partitionId, p) -> {
                String name = where + " at offset " + image.offset() + ": partition " + topic.name() + "-" + partitionId
                        + " (replicas " + p.replicas() + ", ISR " + p.isr() + ", ELR " + p.elr() + ", last-known ELR "
                        + p.lastKnownElr() + ")";
                Set<Integer> seen = new HashSet<>(p.isr());
                for (List<Integer> list : List.of(p.elr(), p.lastKnownElr())) {
                    for (int member : list) {
                        if (!p.replicas().contains(member) || !seen.add(member)) {
                            throw cluster.violation(name + " lists " + member + " twice or outside its replicas");
                        }
                    }
                }
                if (p.isr().size() >= minIsr && (!p.elr().isEmpty() || !p.lastKnownElr().isEmpty())) {
                    throw cluster.violation(name + " keeps an ELR with an ISR of at least min.insync.replicas "
                            + minIsr);
                }
            });
        }
    }

    private static int minIsr(MetadataImage image, String topic) {
        String value = image.configs().configs(ConfigResource.topic(topic)).get("min.insync.replicas");
        if (value == null) {
            value = image.configs().configs(ConfigResource.broker("")).get("min.insync.replicas");
        }
        return value == null ? 1 : Integer.parseInt(value);
    }
}
