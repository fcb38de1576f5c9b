package io.kraft.metadata.sim;

import io.kraft.metadata.image.MetadataImage;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Hands an invariant each running controller's committed image once per change, so that checks after every event
 * cost nothing while images stand still. Keyed by controller instance: a restarted controller starts over.
 */
final class ImageWatch {
    /** A check of one controller's new image; {@code previous} is null the first time. */
    @FunctionalInterface
    interface Check {
        void check(SimController controller, MetadataImage previous, MetadataImage image);
    }

    private final Map<SimController, MetadataImage> lastSeen = new IdentityHashMap<>();

    void forEachChanged(SimCluster cluster, Check check) {
        lastSeen.keySet().retainAll(cluster.controllers().values());
        for (SimController controller : cluster.controllers().values()) {
            MetadataImage image = controller.controller.image();
            MetadataImage previous = lastSeen.put(controller, image);
            if (previous != image) {
                check.check(controller, previous, image);
            }
        }
    }
}
