package io.kraft.systest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Injects faults into a {@link ChaosCluster} on a schedule drawn from a seeded random: kill -9 and restart, SIGSTOP
 * then SIGCONT, isolating a node from every other, a broker from the other brokers only (no replication, but
 * controllers and clients reach it), a partition leader from the controllers only (clients still reach it), and the
 * active controller. One fault at a time, or with {@link Timing#overlap} sometimes two on different nodes; each is
 * undone before the next. Each action is logged as one line with the time since the start.
 */
final class Nemesis {
    /** The faults, each injected at least once per run. */
    enum Fault {
        KILL, PAUSE, ISOLATE, ISOLATE_FROM_BROKERS, ISOLATE_LEADER_FROM_CONTROLLERS, ISOLATE_ACTIVE_CONTROLLER
    }

    /**
     * How long a fault lasts and how long the cluster is left alone between faults, in milliseconds, and whether a
     * second fault on another node may overlap the first.
     */
    record Timing(long minFaultMs, long maxFaultMs, long minQuietMs, long maxQuietMs, boolean overlap) {
    }

    private final ChaosCluster cluster;
    private final Admin admin;
    private final String topic;
    private final Random random;
    private final Timing timing;
    private final List<String> log = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private int injected;

    Nemesis(ChaosCluster cluster, Admin admin, String topic, long seed, Timing timing) {
        this.cluster = cluster;
        this.admin = admin;
        this.topic = topic;
        this.random = new Random(seed);
        this.timing = timing;
    }

    /** Injects faults until {@code duration} has passed and every kind of fault was injected once. */
    void run(Duration duration) throws InterruptedException {
        Set<Fault> notYet = EnumSet.allOf(Fault.class);
        long endNanos = startNanos + duration.toNanos();
        while (!notYet.isEmpty() || System.nanoTime() - endNanos < 0) {
            // The kinds not injected yet come first, in a seeded order; then any kind.
            List<Fault> choices = new ArrayList<>(notYet.isEmpty() ? EnumSet.allOf(Fault.class) : notYet);
            Fault fault = choices.get(random.nextInt(choices.size()));
            notYet.remove(fault);
            long faultMs = between(timing.minFaultMs(), timing.maxFaultMs());
            boolean second = timing.overlap() && random.nextInt(3) == 0;
            Fault secondFault = Fault.values()[random.nextInt(Fault.values().length)];
            Set<Integer> hit = new java.util.HashSet<>();
            List<Undo> undos = new ArrayList<>();
            try {
                undos.add(begin(fault, hit, faultMs));
                if (second) {
                    undos.add(begin(secondFault, hit, faultMs));
                }
                Thread.sleep(faultMs);
            } finally {
                for (int i = undos.size() - 1; i >= 0; i--) {
                    undos.get(i).run();
                }
            }
            Thread.sleep(between(timing.minQuietMs(), timing.maxQuietMs()));
        }
    }

    /** When the nemesis was made, the zero of its log's times ({@link System#nanoTime}). */
    long startNanos() {
        return startNanos;
    }

    /** The faults injected so far. */
    int injected() {
        return injected;
    }

    /** Every line logged, in order. */
    List<String> log() {
        return List.copyOf(log);
    }

    /** What undoes a fault. */
    private interface Undo {
        void run() throws InterruptedException;
    }

    /** Starts a fault on a node not in {@code hit} (and adds it there); answers how to undo it. */
    private Undo begin(Fault fault, Set<Integer> hit, long faultMs) {
        int node = randomNode();
        int target = switch (fault) {
            case KILL, PAUSE, ISOLATE -> node;
            case ISOLATE_FROM_BROKERS -> ChaosCluster.BROKERS.get(Math.floorMod(node, ChaosCluster.BROKERS.size()));
            case ISOLATE_LEADER_FROM_CONTROLLERS -> leaderOf(Math.floorMod(node, 3));
            case ISOLATE_ACTIVE_CONTROLLER -> {
                int active = ChaosCluster.activeController(admin);
                yield active > 0 ? active : ChaosCluster.CONTROLLERS.get(Math.floorMod(node, 3));
            }
        };
        if (!hit.add(target)) {
            note("no " + fault + " now: node " + target + " is already faulted");
            return () -> { };
        }
        injected++;
        return switch (fault) {
            case KILL -> {
                note("kill -9 node " + target + " for " + faultMs + " ms");
                cluster.kill(target);
                yield () -> {
                    note("restart node " + target);
                    cluster.start(target);
                    cluster.awaitReady(target);
                    note("node " + target + " ready");
                };
            }
            case PAUSE -> {
                note("SIGSTOP node " + target + " for " + faultMs + " ms");
                cluster.pause(target);
                yield () -> {
                    cluster.resume(target);
                    note("SIGCONT node " + target);
                };
            }
            case ISOLATE -> cut("isolate node " + target, cluster.mesh().isolate(target), faultMs);
            case ISOLATE_FROM_BROKERS -> cut("isolate broker " + target + " from the other brokers",
                    cluster.mesh().separate(List.of(target), ChaosCluster.BROKERS), faultMs);
            case ISOLATE_LEADER_FROM_CONTROLLERS -> cut("isolate partition leader " + target
                    + " from the controllers", cluster.mesh().separate(List.of(target), ChaosCluster.CONTROLLERS),
                    faultMs);
            case ISOLATE_ACTIVE_CONTROLLER -> cut("isolate active controller " + target,
                    cluster.mesh().isolate(target), faultMs);
        };
    }

    private Undo cut(String what, List<ProxyMesh.Link> links, long faultMs) {
        note(what + " for " + faultMs + " ms (" + links.size() + " links cut)");
        return () -> {
            cluster.mesh().healAll();
            note("heal");
        };
    }

    /** The partition's leader as the brokers report it, or a random broker if none answers in time. */
    private int leaderOf(int partition) {
        try {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(10, TimeUnit.SECONDS).get(topic);
            TopicPartitionInfo info = description.partitions().get(partition);
            if (info.leader() != null && !info.leader().isEmpty()) {
                return info.leader().id();
            }
        } catch (Exception e) {
            note("no leader known for partition " + partition + " (" + e.getClass().getSimpleName() + ")");
        }
        return ChaosCluster.BROKERS.get(Math.floorMod(partition, ChaosCluster.BROKERS.size()));
    }

    private int randomNode() {
        List<Integer> all = new ArrayList<>(ChaosCluster.CONTROLLERS);
        all.addAll(ChaosCluster.BROKERS);
        return all.get(random.nextInt(all.size()));
    }

    private long between(long min, long max) {
        return min + (max > min ? (long) (random.nextDouble() * (max - min)) : 0);
    }

    private void note(String action) {
        String line = String.format(Locale.ROOT, "[nemesis] +%6.1fs %s",
                (System.nanoTime() - startNanos) / 1e9, action);
        log.add(line);
        System.out.println(line);
    }
}
