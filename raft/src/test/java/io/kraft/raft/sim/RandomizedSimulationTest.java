package io.kraft.raft.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random clusters under random faults, one seed each: 3 or 5 voters and up to two observers, a steady client
 * load of batches of varying sizes (some longer than a fetch may carry), and partitions, one-way links, loss, duplication, reordering, crashes and restarts; then a liveness phase
 * heals the network, leaves up to a minority of voters down (often the leader), and demands a leader and a new
 * commit within bounded simulated time, learned by every running member. A third of the seeds also take
 * snapshots now and then on random members (usually deleting the log prefix), so lagging and restarted members
 * catch up through snapshot transfers, some of whose chunks arrive corrupted.
 *
 * <p>Replay one seed: {@code mvn -B -o -pl raft test -Dtest=RandomizedSimulationTest -Dkraft.seed=N}.
 * Run more: {@code -Dkraft.seeds=5000 -Dkraft.firstSeed=100000}.
 */
class RandomizedSimulationTest {
    private static final long FAULT_PHASE_UNITS = 2000L * SimCluster.TICK_UNITS;
    /** After healing: a few election rounds, generously, since the faults may leave every node mid-backoff. */
    private static final long LIVENESS_BOUND_UNITS = 30L * SimCluster.ELECTION_TIMEOUT_TICKS * SimCluster.TICK_UNITS;

    @Test
    void safetyHoldsAndProgressResumesUnderRandomFaults() {
        String replay = System.getProperty("kraft.seed");
        long first = replay != null ? Long.parseLong(replay) : Long.getLong("kraft.firstSeed", 0);
        int count = replay != null ? 1 : Integer.getInteger("kraft.seeds", 1000);
        long events = 0;
        long committed = 0;
        long epochs = 0;
        long snapshotLoads = 0;
        long corruptedChunks = 0;
        long tornTransfers = 0;
        long tornBatches = 0;
        for (long seed = first; seed < first + count; seed++) {
            try {
                SimCluster cluster = runSeed(seed);
                events += cluster.eventsRun();
                committed += cluster.committed().size();
                epochs += cluster.nodes().stream().mapToInt(SimNode::persistedEpoch).max().orElse(0);
                snapshotLoads += cluster.nodes().stream().mapToInt(n -> n.loadedSnapshots().size()).sum();
                corruptedChunks += cluster.corruptedSnapshotChunks();
                tornTransfers += cluster.tornSnapshotTransfers();
                tornBatches += cluster.tornBatchRestarts();
            } catch (Throwable failure) {
                System.err.println("simulation failed for seed " + seed + "; replay with -Dkraft.seed=" + seed);
                throw new AssertionError("seed " + seed + " failed (replay with -Dkraft.seed=" + seed + "): "
                        + failure.getMessage(), failure);
            }
        }
        System.out.printf("simulated %d seeds from %d: %d events, %d committed entries, %d epochs, %d snapshot "
                + "loads, %d corrupted snapshot chunks rejected, %d snapshot transfers torn by crashes, %d restarts "
                + "on a log ending inside a batch%n", count, first, events, committed, epochs, snapshotLoads,
                corruptedChunks, tornTransfers, tornBatches);
        assertTrue(committed > count, "the simulations committed entries");
    }

    private static SimCluster runSeed(long seed) {
        Random shape = new Random(seed);
        SimCluster cluster = new SimCluster(seed, shape.nextBoolean() ? 3 : 5, shape.nextInt(3));
        cluster.startWorkload(5 * SimCluster.TICK_UNITS);
        cluster.injectRandomFaults(FAULT_PHASE_UNITS);
        if (shape.nextInt(3) == 0) {
            cluster.takeRandomSnapshots(FAULT_PHASE_UNITS, 100 * SimCluster.TICK_UNITS);
        }
        cluster.runFor(FAULT_PHASE_UNITS);

        cluster.stopWorkload();
        cluster.heal();
        // Liveness must also hold with a minority of voters down, the leader often among them.
        int keepDown = shape.nextInt(cluster.voterIds().size() / 2 + 1);
        for (int i = 0; i < keepDown; i++) {
            int victim = cluster.leader().filter(l -> shape.nextBoolean()).map(SimNode::id)
                    .orElse(1 + shape.nextInt(cluster.voterIds().size()));
            cluster.crash(victim);
        }
        long committedOffset = cluster.commitAProbe(LIVENESS_BOUND_UNITS);
        assertTrue(committedOffset >= 0, cluster.describe("no append committed within " + LIVENESS_BOUND_UNITS
                + " units after healing"));
        long target = committedOffset + 1;
        assertTrue(cluster.runUntil(() -> RaftSimulationTest.allUpNodesReach(cluster, target), LIVENESS_BOUND_UNITS),
                cluster.describe("not every member (observers too) learned commit " + committedOffset));
        return cluster;
    }
}
