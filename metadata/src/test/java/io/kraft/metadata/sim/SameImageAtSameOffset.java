package io.kraft.metadata.sim;

import io.kraft.metadata.image.MetadataImage;
import java.util.HashMap;
import java.util.Map;

/**
 * All controllers that applied offset N have identical images at N, whatever batches, snapshots and restarts took
 * them there; and that image is the one the committed log itself gives when the oracle is at N too.
 */
final class SameImageAtSameOffset implements Invariant {
    private final ImageWatch watch = new ImageWatch();
    private final Map<Long, MetadataImage> imagesByOffset = new HashMap<>();

    @Override
    public void check(SimCluster cluster) {
        MetadataImage oracle = cluster.committedLog().image();
        compare(cluster, "the committed log", oracle);
        watch.forEachChanged(cluster, (controller, previous, image) -> compare(cluster, "controller " + controller.id,
                image));
    }

    private void compare(SimCluster cluster, String who, MetadataImage image) {
        if (image.offset() < 0) {
            return;
        }
        MetadataImage known = imagesByOffset.putIfAbsent(image.offset(), image);
        if (known != null && known != image && !known.equals(image)) {
            throw cluster.violation(who + " has another image at offset " + image.offset() + ":\n  " + image
                    + "\n  than seen before:\n  " + known);
        }
    }
}
