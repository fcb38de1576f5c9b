package io.kraft.raft.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.LogEntry;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Voter changes (KIP-853) under random faults, one seed each: a dynamic quorum of 1 to 3 voters and enough members
 * formatted without a voter set to grow to five, a steady client load, voters added and removed at random on
 * whichever node leads (so voters are added, removed and, over a run, replaced, the leader among them), and
 * partitions, loss, crashes and restarts. Every invariant, {@link VoterChangesOneAtATime} included, is checked after
 * every event. Then the network heals, every member restarts, and a leader must commit a new record that every
 * running member learns.
 *
 * <p>Replay one seed: {@code mvn -B -o -pl raft test -Dtest=MembershipSimulationTest -Dkraft.seed=N}.
 * Run more: {@code -Dkraft.membershipSeeds=2000 -Dkraft.firstSeed=100000}.
 */
class MembershipSimulationTest {
    private static final long FAULT_PHASE_UNITS = 2000L * SimCluster.TICK_UNITS;
    private static final long LIVENESS_BOUND_UNITS = 30L * SimCluster.ELECTION_TIMEOUT_TICKS * SimCluster.TICK_UNITS;
    /**
     * Catching up takes longer here than in {@link RandomizedSimulationTest}: no snapshots, and a member formatted to
     * be added later may have fetched nothing yet, so it replays the whole log in small fetches over a slow disk.
     */
    private static final long CATCH_UP_BOUND_UNITS = 5 * LIVENESS_BOUND_UNITS;

    @Test
    void votersChangeSafelyUnderRandomFaults() {
        String replay = System.getProperty("kraft.seed");
        long first = replay != null ? Long.parseLong(replay) : Long.getLong("kraft.firstSeed", 0);
        int count = replay != null ? 1 : Integer.getInteger("kraft.membershipSeeds", 60);
        long committedChanges = 0;
        long requested = 0;
        long committed = 0;
        for (long seed = first; seed < first + count; seed++) {
            try {
                SimCluster cluster = runSeed(seed);
                committed += cluster.committed().size();
                requested += cluster.voterChangesRequested();
                committedChanges += cluster.committed().stream()
                        .filter(e -> e.type() == LogEntry.EntryType.VOTERS).count();
            } catch (Throwable failure) {
                System.err.println("membership simulation failed for seed " + seed + "; replay with -Dkraft.seed="
                        + seed);
                throw new AssertionError("seed " + seed + " failed (replay with -Dkraft.seed=" + seed + "): "
                        + failure.getMessage(), failure);
            }
        }
        System.out.printf("simulated %d membership seeds from %d: %d voter changes requested, %d committed, %d "
                + "committed entries%n", count, first, requested, committedChanges, committed);
        if (replay == null) {
            // Over many seeds the workload must really have changed voters (one replayed seed may change few).
            assertTrue(committedChanges > count, "the simulations changed voters");
        }
    }

    private static SimCluster runSeed(long seed) {
        Random shape = new Random(seed);
        int voters = 1 + shape.nextInt(3);
        SimCluster cluster = new SimCluster(seed, voters, 5 - voters, true);
        cluster.startWorkload(5 * SimCluster.TICK_UNITS);
        cluster.injectRandomFaults(FAULT_PHASE_UNITS);
        cluster.changeVotersRandomly(FAULT_PHASE_UNITS, 40 * SimCluster.TICK_UNITS);
        cluster.runFor(FAULT_PHASE_UNITS);

        cluster.stopWorkload();
        cluster.heal();
        long committedOffset = cluster.commitAProbe(LIVENESS_BOUND_UNITS);
        assertTrue(committedOffset >= 0, cluster.describe("no append committed within " + LIVENESS_BOUND_UNITS
                + " units after healing"));
        long target = committedOffset + 1;
        assertTrue(cluster.runUntil(() -> RaftSimulationTest.allUpNodesReach(cluster, target), CATCH_UP_BOUND_UNITS),
                cluster.describe("not every member learned commit " + committedOffset));
        return cluster;
    }
}
