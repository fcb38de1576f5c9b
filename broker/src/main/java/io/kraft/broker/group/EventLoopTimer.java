package io.kraft.broker.group;

import io.kraft.broker.concurrent.ExecutorShutdown;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production {@link CoordinatorTimer}: one daemon thread that runs every coordinator event and timer in
 * submission order, with the system clock.
 */
public final class EventLoopTimer implements CoordinatorTimer, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventLoopTimer.class);

    private final ScheduledThreadPoolExecutor executor;

    public EventLoopTimer(String threadName) {
        this.executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, threadName);
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public long nowMs() {
        return System.currentTimeMillis();
    }

    @Override
    public Cancellable schedule(long delayMs, Runnable task) {
        if (executor.isShutdown()) {
            return () -> { };
        }
        ScheduledFuture<?> future = executor.schedule(guarded(task), Math.max(0, delayMs), TimeUnit.MILLISECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void execute(Runnable task) {
        if (!executor.isShutdown()) {
            executor.execute(guarded(task));
        }
    }

    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                // One failed event must not stop the loop that every group depends on.
                LOG.error("Group coordinator event failed", e);
            }
        };
    }

    @Override
    public void close() {
        ExecutorShutdown.now(executor, Duration.ofSeconds(5));
    }
}
