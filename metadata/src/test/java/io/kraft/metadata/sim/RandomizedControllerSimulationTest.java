package io.kraft.metadata.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random metadata clusters under random faults, one seed each: 3 or 5 controllers over the simulated quorum, 3 to 5
 * brokers and an admin at work, while controllers crash, restart and are cut off from the quorum, the network clogs,
 * leaders resign, and brokers pause, stop, restart and shut down; every invariant is checked after every event. Then
 * a liveness phase heals everything and demands, within bounded simulated time, an active controller, an
 * acknowledged topic creation, every controller caught up with the committed log, every broker unfenced and a
 * transaction completed.
 *
 * <p>Replay one seed: {@code mvn -B -o -pl metadata -am test -Dtest=RandomizedControllerSimulationTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dkraft.seed=N}. Run more: {@code -Dkraft.seeds=5000 -Dkraft.firstSeed=N}.
 */
class RandomizedControllerSimulationTest {
    private static final long FAULT_PHASE_MS = 6_000;
    private static final long LIVENESS_BOUND_MS = 20_000;

    @Test
    void safetyHoldsAndProgressResumesUnderRandomFaults() {
        String replay = System.getProperty("kraft.seed");
        long first = replay != null ? Long.parseLong(replay) : Long.getLong("kraft.firstSeed", 0);
        int count = replay != null ? 1 : Integer.getInteger("kraft.seeds", 500);
        long startedNanos = System.nanoTime();
        long events = 0;
        long acknowledged = 0;
        long records = 0;
        long elections = 0;
        long crashes = 0;
        long transfers = 0;
        long loads = 0;
        long transactions = 0;
        for (long seed = first; seed < first + count; seed++) {
            try {
                SimCluster cluster = runSeed(seed);
                events += cluster.scheduler().eventsRun();
                acknowledged += cluster.acknowledged();
                records += cluster.committedLog().records();
                elections += cluster.raft().elections();
                crashes += cluster.controllerCrashes();
                transfers += cluster.raft().snapshotTransfers();
                loads += cluster.raft().snapshotLoads();
                transactions += cluster.committedLog().transactionsCompleted();
            } catch (Throwable failure) {
                System.err.println("controller simulation failed for seed " + seed + "; replay with -Dkraft.seed="
                        + seed);
                throw new AssertionError("seed " + seed + " failed (replay with -Dkraft.seed=" + seed + "): "
                        + failure.getMessage(), failure);
            }
        }
        System.out.printf("simulated %d controller clusters from seed %d in %d ms: %d events, %d committed records, "
                + "%d acknowledged writes, %d elections, %d controller crashes, %d snapshot loads (%d transferred), "
                + "%d transactions completed%n",
                count, first, (System.nanoTime() - startedNanos) / 1_000_000, events, records, acknowledged, elections,
                crashes, loads, transfers, transactions);
        assertTrue(transactions > 0, "the simulations completed transactions");
        assertTrue(acknowledged > count, "the simulations acknowledged writes");
    }

    static SimCluster runSeed(long seed) {
        Random shape = new Random(seed);
        SimCluster cluster = new SimCluster(seed, shape.nextBoolean() ? 3 : 5, 3 + shape.nextInt(3));
        cluster.admin().start(100);
        cluster.transactions().start(50);
        cluster.injectRandomFaults(cluster.nowMs() + FAULT_PHASE_MS);
        cluster.runFor(FAULT_PHASE_MS);

        cluster.admin().stop();
        cluster.transactions().stop();
        cluster.heal();
        assertTrue(cluster.runUntil(() -> cluster.activeController().isPresent(), LIVENESS_BOUND_MS),
                cluster.describe("no active controller within " + LIVENESS_BOUND_MS + " ms of healing"));
        assertTrue(cluster.createTopicUntilAcknowledged("probe", 1, 1, LIVENESS_BOUND_MS).isPresent(),
                cluster.describe("no topic creation acknowledged within " + LIVENESS_BOUND_MS + " ms of healing"));
        assertTrue(cluster.runUntil(cluster::controllersCaughtUp, LIVENESS_BOUND_MS),
                cluster.describe("not every controller caught up with the committed log"));
        assertTrue(cluster.runUntil(cluster::brokersUnfenced, LIVENESS_BOUND_MS),
                cluster.describe("not every broker was unfenced within " + LIVENESS_BOUND_MS + " ms of healing"));
        long completedBefore = cluster.committedLog().transactionsCompleted();
        cluster.transactions().start(50);
        assertTrue(cluster.runUntil(() -> cluster.committedLog().transactionsCompleted() > completedBefore,
                LIVENESS_BOUND_MS), cluster.describe("no transaction completed within " + LIVENESS_BOUND_MS
                + " ms of healing"));
        cluster.transactions().stop();
        return cluster;
    }
}
