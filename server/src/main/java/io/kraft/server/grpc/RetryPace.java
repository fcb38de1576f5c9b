package io.kraft.server.grpc;

/**
 * How long the controller client waits before its next hop after a refusal, and the backoff it carries on.
 *
 * @param delayMs       wait before the next attempt
 * @param nextBackoffMs backoff the attempt after that starts from
 */
record RetryPace(long delayMs, long nextBackoffMs) {
    static final long INITIAL_BACKOFF_MS = 20;
    // Kafka's clients retry NOT_CONTROLLER every retry.backoff.ms (100 ms). A cap of 1 s here made a request issued
    // during an election reach the new controller up to a second after it became active.
    static final long MAX_BACKOFF_MS = 200;
    /** How often a controller that names itself active but does not serve yet is asked again. */
    static final long CLAIMING_RETRY_MS = 50;

    /**
     * The first hop to a controller another one named goes at once; a controller that names itself but does not
     * serve yet (catching up) is asked again at a short fixed pace, since a growing backoff would overshoot the
     * moment it starts serving; anything else backs off, doubling up to the cap, so that voters naming each other
     * during an election cannot make a request spin.
     */
    static RetryPace after(boolean hinted, boolean claiming, int hops, long backoffMs) {
        long delayMs = hinted && hops == 0 ? 0 : claiming ? Math.min(backoffMs, CLAIMING_RETRY_MS) : backoffMs;
        long nextBackoffMs = claiming ? backoffMs : Math.min(backoffMs * 2, MAX_BACKOFF_MS);
        return new RetryPace(delayMs, nextBackoffMs);
    }
}
