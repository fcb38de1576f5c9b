package io.kraft.metadata.loop;

import io.kraft.metadata.fault.FaultHandler;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link EventLoop} on one daemon thread of its own, timed by the system's monotonic clock. An event that throws is
 * a fault for the loop's {@link FaultHandler}: the owner catches what it expects, so anything reaching the loop means
 * the state it owns can no longer be trusted (the thread itself would run on, hiding that).
 */
public final class SingleThreadEventLoop implements EventLoop {
    private static final Logger LOG = LoggerFactory.getLogger(SingleThreadEventLoop.class);
    /** How long {@link #close()} lets queued events finish. */
    private static final long CLOSE_WAIT_MS = 10_000;

    private final String threadName;
    private final FaultHandler faultHandler;
    private final Time time;
    private final ScheduledExecutorService executor;
    private volatile Thread thread;

    /**
     * A loop whose failed events are only logged: for tests and tools, where no process is at stake.
     *
     * @param threadName the thread's name, e.g. {@code quorum-controller-1}
     */
    public SingleThreadEventLoop(String threadName) {
        this(threadName, (message, cause) -> LOG.error("{}", message, cause), Time.SYSTEM);
    }

    /** A loop whose failed events go to {@code faultHandler} (a node's: it stops the process). */
    public SingleThreadEventLoop(String threadName, FaultHandler faultHandler) {
        this(threadName, faultHandler, Time.SYSTEM);
    }

    SingleThreadEventLoop(String threadName, FaultHandler faultHandler, Time time) {
        this.threadName = threadName;
        this.faultHandler = java.util.Objects.requireNonNull(faultHandler, "faultHandler");
        this.time = time;
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            thread = t;
            return t;
        });
        // Closing runs what is queued, not timers that are not due: a snapshot check may be an hour away.
        pool.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        pool.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
        pool.setRemoveOnCancelPolicy(true);
        this.executor = pool;
    }

    @Override
    public boolean execute(String name, Runnable event) {
        try {
            executor.execute(() -> run(name, event));
            return true;
        } catch (RejectedExecutionException closed) {
            return false;
        }
    }

    @Override
    public Scheduled schedule(String name, long deadlineMs, Runnable event) {
        long delayMs = Math.max(0, deadlineMs - time.monotonicMs());
        try {
            ScheduledFuture<?> future = executor.schedule(() -> run(name, event), delayMs, TimeUnit.MILLISECONDS);
            return () -> future.cancel(false);
        } catch (RejectedExecutionException closed) {
            return () -> { };
        }
    }

    @Override
    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    // The last net: the executor would keep the error in a future nobody reads and run the next event as if all
    // were well.
    private void run(String name, Runnable event) {
        try {
            event.run();
        } catch (Throwable e) {
            faultHandler.handleFault("event " + name + " on " + threadName + " failed: " + e, e);
        }
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!inLoop() && !executor.awaitTermination(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS)) {
                LOG.warn("Event loop {} did not finish its queued events within {} ms", threadName, CLOSE_WAIT_MS);
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
