package io.kraft.broker.network;

import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The bounded pool that runs request handlers: {@code num.io.threads} threads and a queue of at most
 * {@code queued.max.requests}. A full pool refuses work instead of growing; callers that were refused
 * register a callback and are told when a slot frees up, so they can stop reading meanwhile. A broker's listeners
 * share one ({@link SharedNetworkResources}).
 */
final class RequestHandlerPool implements AutoCloseable {
    private final ThreadPoolExecutor executor;
    private final Queue<Runnable> spaceWaiters = new ConcurrentLinkedQueue<>();
    private final int threadCount;
    /** Time the handler threads have spent running tasks, summed over the threads. */
    private final LongAdder busyNanos = new LongAdder();
    private final ThreadLocal<long[]> taskStartNanos = ThreadLocal.withInitial(() -> new long[1]);
    private long lastBusyNanos;
    private long lastSampleNanos = System.nanoTime();
    private volatile double idleRatio = 1;

    RequestHandlerPool(int ioThreads, int queuedMaxRequests) {
        AtomicInteger threadNumber = new AtomicInteger();
        ThreadFactory threads = task -> {
            Thread thread = new Thread(task, "kraft-request-handler-" + threadNumber.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        };
        this.threadCount = ioThreads;
        this.executor = new ThreadPoolExecutor(ioThreads, ioThreads, 0L, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(queuedMaxRequests), threads) {
            @Override
            protected void beforeExecute(Thread thread, Runnable task) {
                taskStartNanos.get()[0] = System.nanoTime();
            }

            @Override
            protected void afterExecute(Runnable task, Throwable failure) {
                busyNanos.add(System.nanoTime() - taskStartNanos.get()[0]);
                wakeWaiters();
            }
        };
    }

    /** Measures the idle share since the previous sample; called periodically by one thread. */
    synchronized void sampleIdleRatio() {
        long now = System.nanoTime();
        long busy = busyNanos.sum();
        long elapsed = now - lastSampleNanos;
        double busyShare = elapsed <= 0 ? 0 : (busy - lastBusyNanos) / ((double) elapsed * threadCount);
        lastBusyNanos = busy;
        lastSampleNanos = now;
        idleRatio = Math.max(0, Math.min(1, 1 - busyShare));
    }

    /**
     * The share of the handler threads' time spent waiting for work over the last sample period (0 to 1), as
     * Kafka's RequestHandlerAvgIdlePercent: near 0 means requests queue for a thread.
     */
    double idleRatio() {
        return idleRatio;
    }

    /** Queues {@code task}; false when the queue is full (the task is not run). */
    boolean trySubmit(Runnable task) {
        try {
            executor.execute(task);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Runs {@code onSpace} once, soon after the queue has room again (possibly right away). */
    void whenSpaceAvailable(Runnable onSpace) {
        spaceWaiters.add(onSpace);
        // A slot may have freed between the refused submit and this registration; no later task would wake us.
        if (executor.getQueue().remainingCapacity() > 0) {
            wakeWaiters();
        }
    }

    private void wakeWaiters() {
        Runnable waiter;
        while ((waiter = spaceWaiters.poll()) != null) {
            try {
                waiter.run();
            } catch (RejectedExecutionException e) {
                // The waiting connection's event loop is shutting down; nothing is left to resume.
            }
        }
    }

    /**
     * Lets running handlers finish (up to 5 s) before interrupting them: an interrupt during file I/O closes
     * the file channel, which would break a log that is still being closed cleanly.
     */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                executor.shutdownNow();
                executor.awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
