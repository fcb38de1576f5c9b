package io.kraft.broker.replica;

import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;

/**
 * A partition's min.insync.replicas, and whether its leader's high watermark waits for it (KIP-966's strict min ISR,
 * on with eligible leader replicas): replicas that leave an ISR smaller than min.insync.replicas then still hold every
 * record below the high watermark, which is what lets the controller elect them.
 *
 * @param minInsyncReplicas the topic's effective min.insync.replicas
 * @param strict            whether the high watermark stays put while the ISR is smaller
 */
record MinIsr(int minInsyncReplicas, boolean strict) {
    static final MinIsr DEFAULT = new MinIsr(1, false);

    /** The rule for a topic's setting under the image's features. */
    static MinIsr of(int minInsyncReplicas, MetadataImage image) {
        return new MinIsr(minInsyncReplicas, image.features().eligibleLeaderReplicasEnabled());
    }

    /** Whether {@code registration}'s ISR is smaller than min.insync.replicas. */
    boolean under(PartitionRegistration registration) {
        return registration.isr().size() < minInsyncReplicas;
    }

    /** Whether a leader with {@code registration} must not advance its high watermark. */
    boolean holdsHighWatermark(PartitionRegistration registration) {
        return strict && under(registration);
    }
}
