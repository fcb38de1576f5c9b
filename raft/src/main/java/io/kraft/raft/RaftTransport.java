package io.kraft.raft;

import java.util.function.Consumer;

/**
 * Carries {@link RaftMessage}s between members. Sending never blocks and may silently lose a message (Raft
 * retries); whatever arrives for this node goes to the handler given to {@link #start}.
 */
public interface RaftTransport extends AutoCloseable {

    /** Begins accepting messages for this node, handing each to {@code inbound} (from any thread). */
    void start(Consumer<RaftMessage> inbound);

    void send(RaftMessage message);

    @Override
    void close();
}
