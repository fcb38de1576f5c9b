package io.kraft.metadata.controller;

/**
 * The controller's soft state about one broker's liveness: when it was last heard from, whether this controller
 * has heard from it at all, and, after its control-plane connection closed, the deadline by which it must come
 * back. Never in the metadata log: a new active controller starts every session afresh.
 */
final class BrokerSession {
    static final long NO_DEADLINE = Long.MAX_VALUE;

    private long lastContactMs;
    private long connectionLossDeadlineMs = NO_DEADLINE;
    private boolean heardFrom;

    BrokerSession(long nowMs) {
        this.lastContactMs = nowMs;
    }

    /** A heartbeat or registration arrived: the broker is alive and (again) connected. */
    void touch(long nowMs) {
        lastContactMs = Math.max(lastContactMs, nowMs);
        connectionLossDeadlineMs = NO_DEADLINE;
        heardFrom = true;
    }

    /**
     * Whether the broker incarnation may be gone for all this controller knows: it never heard from it (the session
     * only started its clock when this controller took over), or its connection closed and it has not come back.
     */
    boolean mayBeGone() {
        return !heardFrom || connectionLossDeadlineMs != NO_DEADLINE;
    }

    void connectionClosed(long nowMs, long graceMs) {
        // A second close before the broker came back must not extend the first deadline.
        connectionLossDeadlineMs = Math.min(connectionLossDeadlineMs, nowMs + graceMs);
    }

    /**
     * Nothing listens at the broker's advertised endpoints any more (connections refused: its process is gone, and
     * its kernel closed its sockets). Fences it at once if it may be gone anyway; a broker heard from since this
     * controller took over, and still connected, is left to its session.
     *
     * @return whether the broker is now due
     */
    boolean refused(long nowMs) {
        if (!mayBeGone()) {
            return false;
        }
        connectionLossDeadlineMs = Math.min(connectionLossDeadlineMs, nowMs);
        return true;
    }

    /** The time at which the broker is to be fenced unless it is heard from before. */
    long fencingDeadlineMs(long sessionTimeoutMs) {
        return Math.min(lastContactMs + sessionTimeoutMs, connectionLossDeadlineMs);
    }

    boolean expired(long nowMs, long sessionTimeoutMs) {
        return nowMs >= fencingDeadlineMs(sessionTimeoutMs);
    }
}
