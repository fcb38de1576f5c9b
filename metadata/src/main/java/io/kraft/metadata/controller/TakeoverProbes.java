package io.kraft.metadata.controller;

import java.util.Set;
import java.util.TreeSet;

/**
 * The refusals heard by probes a newly elected controller starts at once, before its epoch is ready: brokers that died
 * with the previous controller are probed while this member still waits to serve, so their refusals are at hand, and
 * their fencing written, the moment it becomes active rather than a probe's round trip later. Kept for one awaited
 * epoch; used on the controller's loop only.
 */
final class TakeoverProbes {
    private static final int NONE = -1;

    private int awaitedEpoch = NONE;
    private final Set<Integer> refused = new TreeSet<>();

    /** This member was elected for {@code epoch} and probes the brokers now: earlier refusals no longer count. */
    void start(int epoch) {
        awaitedEpoch = epoch;
        refused.clear();
    }

    /** A probe started for {@code epoch} found nothing listening at the broker's endpoints. */
    void refused(int epoch, int brokerId) {
        if (epoch == awaitedEpoch) {
            refused.add(brokerId);
        }
    }

    /** The brokers that refused while {@code epoch} was awaited, now that it is ready; forgets them. */
    Set<Integer> takeRefused(int epoch) {
        Set<Integer> taken = epoch == awaitedEpoch ? Set.copyOf(refused) : Set.of();
        stop();
        return taken;
    }

    /** Leadership moved on: the refusals heard for the awaited epoch are dropped. */
    void stop() {
        awaitedEpoch = NONE;
        refused.clear();
    }
}
