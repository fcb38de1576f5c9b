package io.kraft.raft;

import java.util.List;
import java.util.OptionalInt;

/**
 * How an observer that knows no leader finds one: it sends its fetch to a random voter (avoiding one that just
 * refused connections), and asks again soon, rather than after the request timeout, when the voter knows no leader
 * either or cannot be reached.
 */
final class ObserverDiscovery {
    private final NodeContext node;
    /** The voter an observer last failed to reach while looking for the leader (its next probe avoids it), or -1. */
    private int unreachableVoter = -1;

    ObserverDiscovery(NodeContext node) {
        this.node = node;
    }

    /** A random voter to ask for the leader, not the one that last refused connections if there is another. */
    OptionalInt voterToProbe() {
        List<Integer> candidates = node.discoveryTargets();
        if (candidates.size() > 1 && candidates.contains(unreachableVoter)) {
            candidates = candidates.stream().filter(id -> id != unreachableVoter).toList();
        }
        return candidates.isEmpty() ? OptionalInt.empty()
                : OptionalInt.of(candidates.get(node.random.nextInt(candidates.size())));
    }

    /** The voter asked knows no leader yet (an election is on): ask again shortly. */
    void probeAgainSoon(FetchSession session) {
        session.retryBy(node.now() + retryTicks());
    }

    /** The voter asked is down: ask another one shortly instead of after the request timeout. */
    void probedVoterUnreachable(int voterId, FetchSession session) {
        unreachableVoter = voterId;
        session.retryBy(node.now() + retryTicks());
    }

    private long retryTicks() {
        return Math.max(1, node.config.electionTimeoutTicks() / 20);
    }
}
