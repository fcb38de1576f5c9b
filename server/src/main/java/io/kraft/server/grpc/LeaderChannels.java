package io.kraft.server.grpc;

import io.grpc.ManagedChannel;
import io.kraft.raft.VoterSet;
import io.kraft.raft.grpc.TransportSecurity;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Channels to the metadata quorum's leader as this node knows it, over the CONTROLLER listener: one per voter, opened
 * at first use, for the calls only the leader answers (describing the quorum, changing its voters).
 */
final class LeaderChannels implements AutoCloseable {
    private final VoterAddressBook voters;
    private final Supplier<OptionalInt> leaderId;
    private final TransportSecurity security;
    private final Map<Integer, ManagedChannel> channels = new ConcurrentHashMap<>();

    LeaderChannels(Map<Integer, InetSocketAddress> voters, Supplier<OptionalInt> leaderId, TransportSecurity security) {
        this.voters = new VoterAddressBook(voters);
        this.leaderId = leaderId;
        this.security = security;
    }

    /** The leader's id, when it is known and reachable at an endpoint this node has. */
    OptionalInt leader() {
        OptionalInt leader = leaderId.get();
        return leader.isPresent() && voters.contains(leader.getAsInt()) ? leader : OptionalInt.empty();
    }

    ManagedChannel channel(int nodeId) {
        return channels.computeIfAbsent(nodeId, id -> security.channelBuilder(id, voters.get(id)).build());
    }

    Map<Integer, InetSocketAddress> voters() {
        return voters.snapshot();
    }

    /** Takes in the voter set's endpoints; a channel to a voter that moved is reopened at its new address. */
    void votersChanged(VoterSet set) {
        for (int moved : voters.update(set)) {
            ManagedChannel stale = channels.remove(moved);
            if (stale != null) {
                stale.shutdown();
            }
        }
    }

    @Override
    public void close() {
        channels.values().forEach(ManagedChannel::shutdownNow);
    }
}
