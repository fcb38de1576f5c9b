package io.kraft.raft;

import java.util.Objects;
import java.util.UUID;

/**
 * Where a node's voter set starts before the log says more, and which log directory the node is: the static
 * {@code controller.quorum.voters} (kraft.version 0, directory unknown), or the set {@code format} wrote into the
 * bootstrap checkpoint (kraft.version 1, KIP-853), possibly empty for a controller that will be added later.
 */
public record VoterBootstrap(VoterSet voters, boolean dynamic, UUID directoryId) {

    public VoterBootstrap {
        Objects.requireNonNull(voters, "voters");
        Objects.requireNonNull(directoryId, "directoryId");
    }

    /** The static set of {@code config}'s voter ids, as before voters could change. */
    public static VoterBootstrap fromStatic(RaftConfig config) {
        return new VoterBootstrap(VoterSet.ofIds(config.voterIds()), false, Voter.UNKNOWN_DIRECTORY);
    }

    /** A dynamic quorum starting from {@code voters}, this node's metadata log being {@code directoryId}. */
    public static VoterBootstrap dynamic(VoterSet voters, UUID directoryId) {
        return new VoterBootstrap(voters, true, directoryId);
    }
}
