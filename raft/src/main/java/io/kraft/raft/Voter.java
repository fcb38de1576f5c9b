package io.kraft.raft;

import java.util.Objects;
import java.util.UUID;

/**
 * One voter of the quorum as KIP-853 defines it: a node id, the directory id of its metadata log (a node whose disk
 * was wiped formats a new one, so it is a different voter), and the endpoint other members reach it at.
 * {@link #UNKNOWN_DIRECTORY} stands for the directory of a statically configured voter, which is not known.
 */
public record Voter(int id, UUID directoryId, String endpoint) {

    /** A static voter's directory: matches whatever directory the node has. */
    public static final UUID UNKNOWN_DIRECTORY = new UUID(0, 0);

    public Voter {
        if (id < 0) {
            throw new IllegalArgumentException("a voter id must be >= 0 but was " + id);
        }
        Objects.requireNonNull(directoryId, "directoryId");
        Objects.requireNonNull(endpoint, "endpoint");
    }

    /** A voter named by id alone, as {@code controller.quorum.voters} does. */
    public static Voter staticVoter(int id) {
        return new Voter(id, UNKNOWN_DIRECTORY, "");
    }

    /** Whether this voter is the replica {@code nodeId} with log directory {@code directory}. */
    public boolean matches(int nodeId, UUID directory) {
        return id == nodeId && (directoryId.equals(UNKNOWN_DIRECTORY) || directory.equals(UNKNOWN_DIRECTORY)
                || directoryId.equals(directory));
    }
}
