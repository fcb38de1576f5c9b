package io.kraft.metadata.sim;

/**
 * What a controller's storage persisted from the deltas (or loaded from a snapshot) is exactly its committed image:
 * the store derives from the one replay path, it never diverges from it.
 */
final class StoredStateMatchesImage implements Invariant {
    private final ImageWatch watch = new ImageWatch();

    @Override
    public void check(SimCluster cluster) {
        watch.forEachChanged(cluster, (controller, previous, image) -> {
            if (!controller.storage.state().equals(image)) {
                throw cluster.violation("controller " + controller.id + " stored " + controller.storage.state()
                        + "\n  but its image at offset " + image.offset() + " is " + image);
            }
        });
    }
}
