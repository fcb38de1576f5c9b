package io.kraft.server;

import io.kraft.raft.file.MetadataLogDirectory;
import java.nio.file.Path;
import java.util.List;

/**
 * A node's metadata log directory ({@code <metadata.log.dir>/__cluster_metadata-0}) and the state stores kept in it
 * beside the log, which a node of an earlier layout kept in metadata.log.dir itself and which move with it.
 */
final class MetadataLogDirs {
    /** The controller's RocksDB store of the replayed metadata. */
    static final String CONTROLLER_STATE = "controller-state";
    /** A broker-only node's RocksDB store of the replayed metadata. */
    static final String BROKER_STATE = "broker-state";

    private MetadataLogDirs() {
    }

    /** The metadata log directory, created or moved into Kafka's layout (see {@link MetadataLogDirectory#prepare}). */
    static Path prepare(Path metadataLogDir) {
        return MetadataLogDirectory.prepare(metadataLogDir, List.of(CONTROLLER_STATE, BROKER_STATE));
    }
}
