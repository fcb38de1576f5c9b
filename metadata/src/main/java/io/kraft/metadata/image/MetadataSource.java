package io.kraft.metadata.image;

/**
 * Where a node's components get committed metadata: the active or standby controller on a controller node,
 * the Raft observer that follows the metadata log on a broker-only node.
 */
public interface MetadataSource {

    /** The last committed image (readable from any thread). */
    MetadataImage image();

    /**
     * Adds a publisher; it receives every image committed from now on. Register before the metadata log is
     * replayed so the first delta (from the empty image) shows the whole state.
     */
    void register(MetadataPublisher publisher);
}
