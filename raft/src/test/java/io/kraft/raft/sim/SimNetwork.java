package io.kraft.raft.sim;

import io.kraft.raft.RaftMessage;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;

/**
 * An in-memory network: each message is lost, delayed, or delivered more than once according to the current
 * fault settings, and blocked links (one-way or both ways) drop everything sent over them. Snapshot chunks model
 * a gRPC response stream: in order on their link, though any chunk may still be lost (a broken stream).
 */
final class SimNetwork {
    private record Link(int from, int to) {
    }

    private final SimScheduler scheduler;
    private final Random random;
    private final Consumer<RaftMessage> deliver;
    private final Set<Link> blocked = new HashSet<>();
    private double lossProbability;
    private double duplicateProbability;
    private int minDelay = 1;
    private int maxDelay = 20;
    private long sent;
    private long dropped;
    /** Per link, when the last snapshot chunk sent over it arrives: later chunks never overtake it. */
    private final java.util.Map<Link, Long> snapshotStreamTail = new java.util.HashMap<>();

    SimNetwork(SimScheduler scheduler, Random random, Consumer<RaftMessage> deliver) {
        this.scheduler = scheduler;
        this.random = random;
        this.deliver = deliver;
    }

    void setFaults(double lossProbability, double duplicateProbability, int minDelay, int maxDelay) {
        this.lossProbability = lossProbability;
        this.duplicateProbability = duplicateProbability;
        this.minDelay = minDelay;
        this.maxDelay = maxDelay;
    }

    void blockOneWay(int from, int to) {
        blocked.add(new Link(from, to));
    }

    void block(int a, int b) {
        blockOneWay(a, b);
        blockOneWay(b, a);
    }

    /** Cuts {@code nodeId} off from every node in {@code others}, both ways. */
    void isolate(int nodeId, Iterable<Integer> others) {
        for (int other : others) {
            if (other != nodeId) {
                block(nodeId, other);
            }
        }
    }

    void healLinks() {
        blocked.clear();
    }

    void send(RaftMessage message) {
        sent++;
        if (blocked.contains(new Link(message.source(), message.destination()))
                || random.nextDouble() < lossProbability) {
            dropped++;
            return;
        }
        int copies = random.nextDouble() < duplicateProbability ? 2 : 1;
        for (int i = 0; i < copies; i++) {
            // Independent delays per copy also reorder messages on one link.
            long delay = minDelay + random.nextInt(maxDelay - minDelay + 1);
            if (message instanceof RaftMessage.FetchSnapshotResponse) {
                Link link = new Link(message.source(), message.destination());
                long arrival = Math.max(scheduler.now() + delay, snapshotStreamTail.getOrDefault(link, 0L));
                snapshotStreamTail.put(link, arrival);
                delay = arrival - scheduler.now();
            }
            scheduler.schedule(delay, "deliver " + message, () -> {
                if (!blocked.contains(new Link(message.source(), message.destination()))) {
                    deliver.accept(message);
                }
            });
        }
    }

    long sent() {
        return sent;
    }

    long dropped() {
        return dropped;
    }
}
