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

    /** A directory id as 16 bytes on the wire, none for {@link #UNKNOWN_DIRECTORY}. */
    public static byte[] directoryBytes(UUID directory) {
        if (directory.equals(UNKNOWN_DIRECTORY)) {
            return new byte[0];
        }
        return java.nio.ByteBuffer.allocate(16).putLong(directory.getMostSignificantBits())
                .putLong(directory.getLeastSignificantBits()).array();
    }

    /**
     * Reads {@link #directoryBytes}.
     *
     * @throws IllegalArgumentException if the bytes are neither empty nor 16 long
     */
    public static UUID directoryFromBytes(byte[] bytes) {
        if (bytes.length == 0) {
            return UNKNOWN_DIRECTORY;
        }
        if (bytes.length != 16) {
            throw new IllegalArgumentException("directory id of " + bytes.length + " bytes, not 16");
        }
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes);
        return new UUID(buffer.getLong(), buffer.getLong());
    }

    /** Whether this voter is the replica {@code nodeId} with log directory {@code directory}. */
    public boolean matches(int nodeId, UUID directory) {
        return id == nodeId && (directoryId.equals(UNKNOWN_DIRECTORY) || directory.equals(UNKNOWN_DIRECTORY)
                || directoryId.equals(directory));
    }
}
