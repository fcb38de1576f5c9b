package io.kraft.server;

import io.kraft.raft.QuorumDescription;
import io.kraft.raft.RaftMessage;
import io.kraft.raft.RaftTransport;
import io.kraft.raft.VoterSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * A node's Raft transport that also tells the node's other control-plane clients (the controller client, the
 * quorum describer, the endpoint updater) of every new voter set (KIP-853), so they call controllers added after
 * start at the endpoints the set names. The listeners run on the Raft thread and must only take the set in.
 */
final class VoterSetAnnouncer implements RaftTransport {
    private final RaftTransport transport;
    private final List<Consumer<VoterSet>> listeners = new CopyOnWriteArrayList<>();

    VoterSetAnnouncer(RaftTransport transport) {
        this.transport = transport;
    }

    /** Adds a listener; before Raft starts, so it hears the first set too. */
    void onVotersChanged(Consumer<VoterSet> listener) {
        listeners.add(listener);
    }

    @Override
    public void votersChanged(VoterSet voters) {
        transport.votersChanged(voters);
        listeners.forEach(listener -> listener.accept(voters));
    }

    @Override
    public void start(Consumer<RaftMessage> inbound) {
        transport.start(inbound);
    }

    @Override
    public void start(Consumer<RaftMessage> inbound, IntConsumer unreachablePeer) {
        transport.start(inbound, unreachablePeer);
    }

    @Override
    public void send(RaftMessage message) {
        transport.send(message);
    }

    @Override
    public void serveDescribeQuorum(Supplier<CompletableFuture<QuorumDescription>> describer) {
        transport.serveDescribeQuorum(describer);
    }

    @Override
    public void close() {
        transport.close();
    }
}
