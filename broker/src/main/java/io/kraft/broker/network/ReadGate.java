package io.kraft.broker.network;

import io.netty.channel.Channel;
import java.util.EnumSet;
import java.util.Set;

/**
 * Whether one connection reads from its socket: it reads only while no reason to pause holds. Each part of
 * the pipeline that needs back-pressure sets and clears its own reason, so none of them turns reading back on
 * while another still needs it off. Used only on the connection's event loop.
 */
final class ReadGate {
    /** Why a connection stops reading. */
    enum Reason {
        /** The listener's request memory ({@code queued.max.request.bytes}) is used up. */
        REQUEST_MEMORY,
        /** Enough parsed requests wait for their turn. */
        PENDING_REQUESTS,
        /** Enough requests are in flight (started or queued, answer not yet written). */
        IN_FLIGHT_REQUESTS,
        /** The handler pool's queue ({@code queued.max.requests}) is full. */
        HANDLER_QUEUE,
        /** The client does not read its responses: the outbound buffer is above its high water mark. */
        UNWRITABLE,
        /** The client went over a client quota: muted for the throttle time it was told (KIP-219). */
        THROTTLED
    }

    private final Channel channel;
    private final Set<Reason> reasons = EnumSet.noneOf(Reason.class);

    ReadGate(Channel channel) {
        this.channel = channel;
    }

    void pause(Reason reason) {
        set(reason, true);
    }

    void resume(Reason reason) {
        set(reason, false);
    }

    void set(Reason reason, boolean paused) {
        boolean changed = paused ? reasons.add(reason) : reasons.remove(reason);
        if (changed) {
            boolean read = reasons.isEmpty();
            if (channel.config().isAutoRead() != read) {
                channel.config().setAutoRead(read);
            }
        }
    }

    boolean isPaused(Reason reason) {
        return reasons.contains(reason);
    }
}
