package io.kraft.broker.concurrent;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/** Closes an executor a component owns: stop it, wait a bounded time for its thread, keep an interrupt. */
public final class ExecutorShutdown {
    private ExecutorShutdown() {
    }

    /** Interrupts what runs, drops what is queued and waits up to {@code wait} for the threads to end. */
    public static void now(ExecutorService executor, Duration wait) {
        executor.shutdownNow();
        await(executor, wait);
    }

    /** Lets what runs and what is queued finish, waiting up to {@code wait} for it. */
    public static void afterQueued(ExecutorService executor, Duration wait) {
        executor.shutdown();
        await(executor, wait);
    }

    private static void await(ExecutorService executor, Duration wait) {
        try {
            executor.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
