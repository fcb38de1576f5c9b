package io.kraft.raft;

import java.util.function.Consumer;
import java.util.function.IntConsumer;

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

    @Override
    void close();
}
