package io.kraft.metadata.image;

/** Receives each new committed metadata image together with the delta that produced it. */
@FunctionalInterface
public interface MetadataPublisher {

    /**
     * Called on the metadata owner's thread after {@code image} became the committed image. After a snapshot
     * load the delta starts from the empty image, so everything in the snapshot shows as changed.
     */
    void publish(MetadataDelta delta, MetadataImage image);
}
