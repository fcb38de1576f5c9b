package io.kraft.raft;

/**
 * Fetch bookkeeping of a follower or observer: at most one fetch in flight, retried after the request timeout,
 * and the deadline by which a successful response must arrive before the leader is presumed gone.
 */
final class FetchSession {
    private boolean inFlight;
    private long requestDeadlineTick;
    private long contactDeadlineTick;

    FetchSession(long contactDeadlineTick) {
        this.contactDeadlineTick = contactDeadlineTick;
    }

    boolean canSend(long nowTick) {
        return !inFlight || nowTick >= requestDeadlineTick;
    }

    void sent(long requestDeadlineTick) {
        this.inFlight = true;
        this.requestDeadlineTick = requestDeadlineTick;
    }

    void answered() {
        inFlight = false;
    }

    void contacted(long contactDeadlineTick) {
        this.contactDeadlineTick = contactDeadlineTick;
    }

    boolean contactExpired(long nowTick) {
        return nowTick >= contactDeadlineTick;
    }
}
