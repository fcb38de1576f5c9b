package io.kraft.raft;

import java.util.function.Consumer;

/** A lone voter's transport: it sends nothing anyone hears and receives nothing. */
public final class SilentTransport implements RaftTransport {
    @Override
    public void start(Consumer<RaftMessage> inbound) {
    }

    @Override
    public void send(RaftMessage message) {
    }

    @Override
    public void close() {
    }
}
