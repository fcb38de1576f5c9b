package io.kraft.broker.network;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;

/**
 * The network threads (Netty event loops) of a node's Kafka listeners, named as Kafka names its processors, and the
 * share of their time spent idle, as Kafka's NetworkProcessorAvgIdlePercent. A network thread that is not working
 * waits in the selector without using the CPU, so idle time is wall time minus the threads' CPU time.
 */
public final class NetworkThreads {
    private final ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    /** CPU time of each thread at the last sample; guarded by this. */
    private final Map<Thread, Long> lastCpuNanos = new HashMap<>();
    private long lastSampleNanos = System.nanoTime();
    private volatile double idleRatio = 1;

    /** Makes the threads of one listener's event loop group and keeps them for sampling. */
    ThreadFactory factory(String listenerName) {
        ThreadFactory netty = new DefaultThreadFactory("kafka-network-thread-" + listenerName);
        return task -> {
            Thread thread = netty.newThread(task);
            threads.add(thread);
            return thread;
        };
    }

    /** Measures the idle share since the last sample (called periodically). */
    synchronized void sample() {
        long now = System.nanoTime();
        long elapsed = now - lastSampleNanos;
        lastSampleNanos = now;
        long busy = 0;
        int running = 0;
        threads.removeIf(thread -> thread.getState() == Thread.State.TERMINATED);
        lastCpuNanos.keySet().retainAll(threads);
        for (Thread thread : threads) {
            long cpuNanos = thread.isAlive() ? cpu.getThreadCpuTime(thread.getId()) : -1;
            if (cpuNanos < 0) {
                continue; // not started yet (event loops start on their first task), or no CPU clock here
            }
            Long before = lastCpuNanos.put(thread, cpuNanos);
            busy += cpuNanos - (before == null ? 0 : before);
            running++;
        }
        if (running > 0 && elapsed > 0) {
            idleRatio = Math.max(0, Math.min(1, 1 - busy / ((double) elapsed * running)));
        }
    }

    /** The share of the network threads' time spent idle over the last sample period (0 to 1). */
    double idleRatio() {
        return idleRatio;
    }
}
