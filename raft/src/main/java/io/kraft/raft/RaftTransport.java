package io.kraft.raft;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Carries {@link RaftMessage}s between members. Sending never blocks and may silently lose a message (Raft
 * retries); whatever arrives for this node goes to the handler given to {@link #start}.
 */
public interface RaftTransport extends AutoCloseable {

    /** Begins accepting messages for this node, handing each to {@code inbound} (from any thread). */
    void start(Consumer<RaftMessage> inbound);

    /**
     * As {@link #start(Consumer)}, and also reports a peer that could not be reached at all (connection refused,
     * unavailable), as opposed to a slow or lost answer. Transports that cannot tell the two apart ignore it.
     */
    default void start(Consumer<RaftMessage> inbound, IntConsumer unreachablePeer) {
        start(inbound);
    }

    void send(RaftMessage message);

    /**
     * Lets tools ask this node to describe the quorum; {@link RaftDriver#start} registers its own
     * {@link RaftDriver#describe}. Transports that serve no such request ignore it.
     */
    default void serveDescribeQuorum(Supplier<CompletableFuture<QuorumDescription>> describer) {
    }

    @Override
    void close();

    /** The voter set in force changed (KIP-853): the transport learns the voters' endpoints. */
    default void votersChanged(VoterSet voters) {
    }
}
