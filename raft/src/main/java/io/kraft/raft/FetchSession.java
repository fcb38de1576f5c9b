package io.kraft.raft;

/**
 * Fetch bookkeeping of a follower or observer: at most one fetch in flight, retried after the request timeout,
 * and the deadline by which a successful response must arrive before the leader is presumed gone.
 */
final class FetchSession {
    private boolean inFlight;
    private long requestDeadlineTick;
    private long contactDeadlineTick;
    private boolean heardFromLeader;

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

    /** The leader answered directly (not hearsay from another voter); the timer restarts. */
    void contacted(long contactDeadlineTick) {
        this.contactDeadlineTick = contactDeadlineTick;
        this.heardFromLeader = true;
    }

    /** Whether the leader itself has been heard from since this session began (within the contact deadline). */
    boolean heardFromLeader() {
        return heardFromLeader;
    }

    /** The leader looks gone (its connection was refused): give up on it by {@code tick} unless it answers first. */
    void expireContactBy(long tick) {
        contactDeadlineTick = Math.min(contactDeadlineTick, tick);
        heardFromLeader = false; // no longer vouch for it: our pre-vote answers may now help replace it
        inFlight = false; // the failed request is not coming back; the next tick may try again
    }

    /** The request in flight went to a peer that could not be reached: another may be tried by {@code tick}. */
    void retryBy(long tick) {
        requestDeadlineTick = Math.min(requestDeadlineTick, tick);
    }

    boolean contactExpired(long nowTick) {
        return nowTick >= contactDeadlineTick;
    }
}
