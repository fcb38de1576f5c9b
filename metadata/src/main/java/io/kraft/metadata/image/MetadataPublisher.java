package io.kraft.metadata.image;

/** Receives each new committed metadata image together with the delta that produced it. */
@FunctionalInterface
public interface MetadataPublisher {

    /**
     * Called on the node's publisher thread, in log order, after {@code image} became the committed image; when the
     * publishers fall behind, one call may carry several committed batches in one delta. After a snapshot load the
     * delta starts from the empty image, so everything in the snapshot shows as changed. A publisher that throws
     * stops the process: its component no longer matches the metadata.
     */
    void publish(MetadataDelta delta, MetadataImage image);

    /** Names the publisher in the one line that reports its failure. */
    default String name() {
        return getClass().getSimpleName();
    }
}
