package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.RaftMessage.BeginQuorumEpoch;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A follower whose leader refuses connections gives up on it after a short grace, not the fetch timeout. */
class LeaderUnreachableTest {
    private static final int ELECTION_TIMEOUT_TICKS = 10;
    private static final int FETCH_TIMEOUT_TICKS = 20;

    private static RaftNode followerOfNodeOne() {
        RaftNode node = new RaftNode(new RaftConfig(2, Set.of(1, 2, 3), ELECTION_TIMEOUT_TICKS, FETCH_TIMEOUT_TICKS,
                10, 10, 4, 100), new InMemoryRaftLog(), QuorumState.INITIAL, new Random(11));
        node.handle(new BeginQuorumEpoch(1, 2, 1));
        node.ready();
        assertEquals(OptionalInt.of(1), node.leaderId());
        return node;
    }

    private static int ticksUntilProspective(RaftNode node) {
        for (int tick = 1; tick <= 10 * FETCH_TIMEOUT_TICKS; tick++) {
            node.tick();
            node.ready();
            if (node.role() == Role.PROSPECTIVE) {
                return tick;
            }
        }
        throw new AssertionError("the follower never stood for election");
    }

    @Test
    void unreachableLeaderIsGivenUpAfterAShortGrace() {
        RaftNode node = followerOfNodeOne();
        node.leaderUnreachable(1);
        int ticks = ticksUntilProspective(node);
        assertTrue(ticks <= ELECTION_TIMEOUT_TICKS / 5 + ELECTION_TIMEOUT_TICKS / 2,
                "pre-vote after " + ticks + " ticks, within the grace");
    }

    @Test
    void anUnreachableNonLeaderChangesNothing() {
        RaftNode node = followerOfNodeOne();
        node.leaderUnreachable(3);
        assertTrue(ticksUntilProspective(node) >= FETCH_TIMEOUT_TICKS,
                "only the fetch timeout ends a leader nobody reported unreachable");
    }
}
