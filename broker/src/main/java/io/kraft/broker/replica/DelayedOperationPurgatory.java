package io.kraft.broker.replica;

import io.netty.util.Timer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Holds delayed operations until they complete, indexed by the keys (partitions) whose changes may
 * complete them: a change calls {@link #checkAndComplete} for its key, which re-checks only the
 * operations watching that key. Deadlines run on a shared timer thread, so waiting costs no thread and
 * never spins. Thread-safe.
 *
 * @param <K> the watch key, e.g. a topic partition
 */
public final class DelayedOperationPurgatory<K> {
    /** Completed operations may linger in other keys' watch lists; they are swept after this many new ones. */
    private static final int PURGE_INTERVAL_OPERATIONS = 1_000;

    private final String name;
    private final Timer timer;
    private final ConcurrentHashMap<K, Queue<DelayedOperation>> watchers = new ConcurrentHashMap<>();
    private final AtomicInteger watchedSincePurge = new AtomicInteger();

    public DelayedOperationPurgatory(String name, Timer timer) {
        this.name = name;
        this.timer = timer;
    }

    /**
     * Completes {@code operation} now if its condition holds; otherwise watches it under every key and
     * arms its deadline.
     *
     * @return true if it completed during this call
     */
    public boolean tryCompleteElseWatch(DelayedOperation operation, Collection<K> keys) {
        if (operation.safeTryComplete()) {
            return true;
        }
        for (K key : keys) {
            if (operation.isCompleted()) {
                return false;
            }
            watchers.compute(key, (k, queue) -> {
                Queue<DelayedOperation> q = queue != null ? queue : new ConcurrentLinkedQueue<>();
                q.add(operation);
                return q;
            });
        }
        // A change between the first check and the watch would otherwise go unnoticed.
        if (operation.safeTryComplete()) {
            return true;
        }
        if (!operation.isCompleted()) {
            operation.startTimer(timer);
        }
        if (watchedSincePurge.incrementAndGet() >= PURGE_INTERVAL_OPERATIONS) {
            watchedSincePurge.set(0);
            purgeCompleted();
        }
        return false;
    }

    /**
     * Re-checks the operations watching {@code key} (its state changed).
     *
     * @return how many this call completed
     */
    public int checkAndComplete(K key) {
        Queue<DelayedOperation> queue = watchers.get(key);
        if (queue == null) {
            return 0;
        }
        int completed = 0;
        for (DelayedOperation operation : queue) {
            if (operation.isCompleted()) {
                queue.remove(operation);
            } else if (operation.safeTryComplete()) {
                queue.remove(operation);
                completed++;
            }
        }
        watchers.computeIfPresent(key, (k, q) -> q.isEmpty() ? null : q);
        return completed;
    }

    /** Operations still waiting (for tests and logs; counts an operation once per key it watches). */
    public int watched() {
        int total = 0;
        for (Queue<DelayedOperation> queue : watchers.values()) {
            for (DelayedOperation operation : queue) {
                if (!operation.isCompleted()) {
                    total++;
                }
            }
        }
        return total;
    }

    private void purgeCompleted() {
        for (K key : List.copyOf(watchers.keySet())) {
            watchers.computeIfPresent(key, (k, q) -> {
                q.removeIf(DelayedOperation::isCompleted);
                return q.isEmpty() ? null : q;
            });
        }
    }

    /** Completes every waiting operation now (shutdown: each answers with what it has). */
    public void completeAll() {
        List<DelayedOperation> pending = new ArrayList<>();
        for (Queue<DelayedOperation> queue : watchers.values()) {
            pending.addAll(queue);
        }
        watchers.clear();
        for (DelayedOperation operation : pending) {
            operation.forceComplete();
        }
    }

    @Override
    public String toString() {
        return "DelayedOperationPurgatory(" + name + ", " + watchers.size() + " keys)";
    }
}
