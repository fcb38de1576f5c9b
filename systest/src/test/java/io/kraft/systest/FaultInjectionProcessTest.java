package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Jepsen-style run: three controllers and three brokers as processes, idempotent acks=all producers and a consumer
 * group on a topic with replication factor 3 and min.insync.replicas 2, while a {@link Nemesis} kills, pauses and
 * partitions nodes. After healing, the whole topic is read back and {@link ChaosChecker} judges the history; every
 * partition must have a leader and a full ISR again within a bound. Short by default; {@code -Pchaos} (or
 * {@code -Dchaos.seconds=N}) runs longer, {@code -Dchaos.seed=N} picks another fault schedule.
 */
class FaultInjectionProcessTest {
    private static final String TOPIC = "chaos";
    private static final int PARTITIONS = 3;
    private static final Duration RECOVERY_BOUND = Duration.ofSeconds(90);
    private static final Duration FINAL_READ_TIMEOUT = Duration.ofMinutes(2);

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    @Test
    void noAcknowledgedRecordIsLostDuplicatedOrReorderedUnderFaults() throws Exception {
        long seconds = Long.getLong("chaos.seconds", 20);
        long seed = Long.getLong("chaos.seed", 20261202);
        boolean longRun = seconds > 60;
        Nemesis.Timing timing = longRun ? new Nemesis.Timing(2_000, 10_000, 1_000, 5_000, true)
                : new Nemesis.Timing(2_000, 4_000, 1_000, 2_000, false);
        Duration quiet = Duration.ofSeconds(longRun ? 15 : 3);
        report("seed " + seed + ", faults for " + seconds + " s (-Dchaos.seed=" + seed + " -Dchaos.seconds=" + seconds
                + " repeats the schedule)");
        ChaosHistory history = new ChaosHistory();
        // The admin client comes after the start: before, it would only retry against listeners not yet open.
        try (ChaosCluster cluster = ChaosCluster.started(processes, dataDir); Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3)
                    .configs(Map.of("min.insync.replicas", "2")))).all().get(60, TimeUnit.SECONDS);
            awaitFullyReplicated(admin, List.of(TOPIC));
            ChaosWorkload workload = new ChaosWorkload(cluster.bootstrap(), TOPIC, PARTITIONS, history);
            workload.start(2, 5, 2);
            awaitAcks(history, 200);
            assertTrafficCrossesTheProxies(cluster.mesh());

            Nemesis nemesis = new Nemesis(cluster, admin, TOPIC, seed, timing);
            nemesis.run(Duration.ofSeconds(seconds));
            cluster.restoreAll();
            long healedAtNanos = System.nanoTime();
            awaitFullyReplicated(admin, List.of(TOPIC, "__consumer_offsets"));
            long recoveredMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - healedAtNanos);
            report("every partition led with a full ISR " + recoveredMs + " ms after the last heal");
            Thread.sleep(quiet.toMillis());
            workload.stop();

            List<ChaosHistory.Read> finalLog = workload.readEverything(FINAL_READ_TIMEOUT);
            ChaosChecker.Result result = ChaosChecker.check(history, finalLog);
            report(String.format(Locale.ROOT, "acked %d, read %d, lost %d, duplicated %d, misplaced %d, "
                            + "out of order %d, read then lost %d, commit regressions %d, faults injected %d, "
                            + "longest unavailability %d ms from %+.1fs (send failures %d, group reads %d, "
                            + "consumer errors %d)",
                    result.acked(), result.read(), result.lost(), result.duplicated(), result.misplaced(),
                    result.outOfOrder(), result.readThenLost(), result.commitRegressions(), nemesis.injected(),
                    result.longestGapMs(), (result.longestGapStartNanos() - nemesis.startNanos()) / 1e9,
                    history.failedSends(), history.reads().size(), workload.consumerErrors()));
            assertTrue(result.ok(), "seed " + seed + ": " + String.join("\n", result.examples()) + "\n"
                    + String.join("\n", nemesis.log()));
            assertTrue(result.acked() > 0 && !history.reads().isEmpty(), "the workload made no progress");
        }
    }

    /**
     * Replication and the brokers' control-plane calls must go through the proxies, or cutting them would prove
     * nothing: each broker has talked to a controller through its links, and the brokers to each other.
     */
    private static void assertTrafficCrossesTheProxies(ProxyMesh mesh) {
        long replication = 0;
        for (int broker : ChaosCluster.BROKERS) {
            long toControllers = ChaosCluster.CONTROLLERS.stream()
                    .mapToLong(controller -> mesh.relayedBytes(broker, controller)).sum();
            assertTrue(toControllers > 0, "broker " + broker + " reached no controller through its proxies");
            for (int peer : ChaosCluster.BROKERS) {
                replication += peer == broker ? 0 : mesh.relayedBytes(broker, peer);
            }
        }
        assertTrue(replication > 0, "no replication crossed the broker-to-broker proxies");
        report("the proxies relayed " + replication + " bytes between brokers");
    }

    /** Waits until every partition of the topics has a leader and all three replicas in its ISR. */
    private static void awaitFullyReplicated(Admin admin, List<String> topics) throws InterruptedException {
        String last = "nothing";
        long deadlineNanos = System.nanoTime() + RECOVERY_BOUND.toNanos();
        while (System.nanoTime() - deadlineNanos < 0) {
            try {
                Map<String, TopicDescription> described = admin.describeTopics(topics).allTopicNames()
                        .get(10, TimeUnit.SECONDS);
                last = described.toString();
                boolean replicated = described.values().stream().flatMap(d -> d.partitions().stream())
                        .allMatch(p -> p.leader() != null && !p.leader().isEmpty() && p.isr().size() == 3);
                if (replicated) {
                    return;
                }
            } catch (Exception e) {
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new AssertionError("partitions not led with a full ISR within " + RECOVERY_BOUND + ": " + last);
    }

    private static void awaitAcks(ChaosHistory history, int count) throws InterruptedException {
        long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (history.acks().size() < count) {
            if (System.nanoTime() - deadlineNanos > 0) {
                throw new AssertionError("only " + history.acks().size() + " sends acknowledged before any fault");
            }
            Thread.sleep(100);
        }
    }

    private static void report(String line) {
        System.out.println("[fault-injection] " + line);
    }
}
