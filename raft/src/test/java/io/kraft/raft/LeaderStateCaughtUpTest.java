package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** When the leader last saw each member caught up with its log (describe-quorum's LastCaughtUpTimestamp). */
class LeaderStateCaughtUpTest {
    private static ReplicaProgress progressOf(LeaderState leader, int replicaId) {
        return leader.progress().stream().filter(p -> p.replicaId() == replicaId).findFirst().orElseThrow();
    }

    @Test
    void aVoterThatNeverFetchedWasNeverCaughtUp() {
        LeaderState leader = new LeaderState(3, 1, 10, Set.of(1, 2, 3), 100);
        assertEquals(-1, progressOf(leader, 2).lastCaughtUpTick());
        assertEquals(-1, progressOf(leader, 2).lastFetchTick());
    }

    @Test
    void fetchingAtTheLeadersEndIsCaughtUpNow() {
        LeaderState leader = new LeaderState(3, 1, 10, Set.of(1, 2, 3), 100);
        leader.recordFetch(2, 50, 7, 50);
        assertEquals(7, progressOf(leader, 2).lastCaughtUpTick());
    }

    @Test
    void reachingWhatTheLeaderHadAtThePreviousFetchMeansCaughtUpThen() {
        LeaderState leader = new LeaderState(3, 1, 10, Set.of(1, 2, 3), 100);
        leader.recordFetch(2, 40, 5, 50); // behind: the leader had 50
        assertEquals(-1, progressOf(leader, 2).lastCaughtUpTick());
        leader.recordFetch(2, 50, 9, 60); // it now has what the leader had at tick 5, but the leader moved on
        assertEquals(5, progressOf(leader, 2).lastCaughtUpTick());
        leader.recordFetch(2, 55, 12, 70); // still short of 60: no newer caught-up time
        assertEquals(5, progressOf(leader, 2).lastCaughtUpTick());
        leader.recordContact(2, 14); // contact without a position keeps what is known
        assertEquals(5, progressOf(leader, 2).lastCaughtUpTick());
        assertEquals(55, progressOf(leader, 2).endOffset());
        assertEquals(14, progressOf(leader, 2).lastFetchTick());
    }

    @Test
    void observersAreTrackedTheSameWay() {
        LeaderState leader = new LeaderState(3, 1, 10, Set.of(1, 2, 3), 100);
        leader.recordFetch(9, 30, 4, 30);
        ReplicaProgress observer = progressOf(leader, 9);
        assertEquals(false, observer.voter());
        assertEquals(4, observer.lastCaughtUpTick());
    }
}
