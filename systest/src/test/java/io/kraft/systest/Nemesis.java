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
 * Injects one fault at a time into a {@link ChaosCluster} on a schedule drawn from a seeded random: kill -9 and
 * restart, SIGSTOP then SIGCONT, isolating a node from every other, isolating a partition leader from the
 * controllers only (clients still reach it) and isolating the active controller. Each fault is undone before the
 * next; each action is logged as one line with the time since the start.
 */
final class Nemesis {
    /** The faults, each injected at least once per run. */
    enum Fault {
        KILL, PAUSE, ISOLATE, ISOLATE_LEADER_FROM_CONTROLLERS, ISOLATE_ACTIVE_CONTROLLER
    }

    /** How long a fault lasts and how long the cluster is left alone between faults, in milliseconds. */
    record Timing(long minFaultMs, long maxFaultMs, long minQuietMs, long maxQuietMs) {
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
            inject(fault, between(timing.minFaultMs(), timing.maxFaultMs()));
            long quietMs = between(timing.minQuietMs(), timing.maxQuietMs());
            Thread.sleep(quietMs);
        }
    }

    /** The faults injected so far. */
    int injected() {
        return injected;
    }

    /** Every line logged, in order. */
    List<String> log() {
        return List.copyOf(log);
    }

    private void inject(Fault fault, long faultMs) throws InterruptedException {
        injected++;
        int node = randomNode();
        switch (fault) {
            case KILL -> {
                note("kill -9 node " + node + " for " + faultMs + " ms");
                cluster.kill(node);
                Thread.sleep(faultMs);
                note("restart node " + node);
                cluster.start(node);
                cluster.awaitReady(node);
                note("node " + node + " ready");
            }
            case PAUSE -> {
                note("SIGSTOP node " + node + " for " + faultMs + " ms");
                cluster.pause(node);
                try {
                    Thread.sleep(faultMs);
                } finally {
                    cluster.resume(node);
                    note("SIGCONT node " + node);
                }
            }
            case ISOLATE -> partition("isolate node " + node, () -> cluster.mesh().isolate(node), faultMs);
            case ISOLATE_LEADER_FROM_CONTROLLERS -> {
                int partition = random.nextInt(3);
                int leader = leaderOf(partition);
                partition("isolate leader " + leader + " of partition " + partition + " from the controllers",
                        () -> cluster.mesh().separate(List.of(leader), ChaosCluster.CONTROLLERS), faultMs);
            }
            case ISOLATE_ACTIVE_CONTROLLER -> {
                int active = ChaosCluster.activeController(admin);
                int target = active > 0 ? active : ChaosCluster.CONTROLLERS.get(random.nextInt(3));
                partition("isolate " + (active > 0 ? "active " : "(no answer: any) ") + "controller " + target,
                        () -> cluster.mesh().isolate(target), faultMs);
            }
            default -> throw new IllegalStateException("unknown fault " + fault);
        }
    }

    private void partition(String what, java.util.function.Supplier<List<ProxyMesh.Link>> cut, long faultMs)
            throws InterruptedException {
        List<ProxyMesh.Link> links = cut.get();
        note(what + " for " + faultMs + " ms (" + links.size() + " links cut)");
        try {
            Thread.sleep(faultMs);
        } finally {
            cluster.mesh().healAll();
            note("heal");
        }
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
        return ChaosCluster.BROKERS.get(random.nextInt(ChaosCluster.BROKERS.size()));
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
