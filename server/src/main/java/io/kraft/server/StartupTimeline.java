package io.kraft.server;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * When each phase of a node's start ended, so {@code kraft-cli start} can say in one line where its start-up time
 * went. Phases end either where the code passes them ({@link #end}) or when a condition first holds
 * ({@link #endWhen}: election, registration, unfencing happen on other threads), and are listed in the order they
 * ended, each with its own duration.
 */
public final class StartupTimeline {
    /** How often the conditions of {@link #endWhen} are checked: fine enough for phases of a few milliseconds. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The epoch milliseconds at which the launcher started the process, if it says. */
    public static final String LAUNCH_MS_PROPERTY = "kraft.launch.ms";

    private final long originNanos;
    private final boolean watching;
    private final List<Phase> phases = new ArrayList<>();
    private final List<Watched> watched = new ArrayList<>();
    private Thread watcher;

    private record Phase(String name, long endNanos) {
    }

    private record Watched(String name, BooleanSupplier reached) {
    }

    private StartupTimeline(long originNanos, boolean watching) {
        this.originNanos = originNanos;
        this.watching = watching;
    }

    /** A timeline starting now that does not watch other threads ({@link #endWhen} does nothing). */
    public static StartupTimeline startingNow() {
        return new StartupTimeline(System.nanoTime(), false);
    }

    /**
     * A timeline starting when this process was launched; its first phase, "jvm", ends now. The launch is the
     * epoch milliseconds in the system property {@value #LAUNCH_MS_PROPERTY} ({@code bin/kraft-cli} sets it, so the
     * script's own time counts), else the JVM's start (the operating system's record of the process start is only
     * precise to a second).
     *
     * @param watching whether {@link #endWhen} watches its conditions (a thread polling each millisecond during the
     *                 start) or does nothing
     */
    public static StartupTimeline sinceProcessStart(boolean watching) {
        long nowNanos = System.nanoTime();
        long nowMs = System.currentTimeMillis();
        long launchMs = Long.getLong(LAUNCH_MS_PROPERTY, -1);
        if (launchMs < 0 || launchMs > nowMs) {
            launchMs = ManagementFactory.getRuntimeMXBean().getStartTime();
        }
        StartupTimeline timeline = new StartupTimeline(
                nowNanos - TimeUnit.MILLISECONDS.toNanos(Math.max(0, nowMs - launchMs)), watching);
        timeline.end("jvm");
        return timeline;
    }

    /** Ends {@code phase} now. */
    public synchronized void end(String phase) {
        phases.add(new Phase(phase, System.nanoTime()));
    }

    /**
     * Ends {@code phase} when {@code reached} first holds, checked every millisecond on a daemon thread until it
     * holds or {@code until} completes; does nothing on a timeline that is not watching.
     */
    public synchronized void endWhen(String phase, BooleanSupplier reached, CompletableFuture<?> until) {
        if (!watching) {
            return;
        }
        watched.add(new Watched(phase, reached));
        if (watcher == null) {
            watcher = new Thread(() -> watch(until), "startup-timeline");
            watcher.setDaemon(true);
            watcher.start();
        }
    }

    private void watch(CompletableFuture<?> until) {
        while (true) {
            synchronized (this) {
                watched.removeIf(w -> {
                    if (w.reached().getAsBoolean()) {
                        phases.add(new Phase(w.name(), System.nanoTime()));
                        return true;
                    }
                    return false;
                });
                if (watched.isEmpty() || until.isDone()) {
                    watcher = null;
                    return;
                }
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /** "jvm 412 ms, config 31 ms, ... (total 1650 ms)": each phase's own duration, in the order they ended. */
    public synchronized String summary() {
        List<Phase> ordered = new ArrayList<>(phases);
        ordered.sort(Comparator.comparingLong(Phase::endNanos));
        StringBuilder line = new StringBuilder();
        long previous = originNanos;
        for (Phase phase : ordered) {
            if (!line.isEmpty()) {
                line.append(", ");
            }
            line.append(phase.name()).append(' ').append(TimeUnit.NANOSECONDS.toMillis(phase.endNanos() - previous))
                    .append(" ms");
            previous = phase.endNanos();
        }
        return line.append(" (total ").append(TimeUnit.NANOSECONDS.toMillis(previous - originNanos)).append(" ms)")
                .toString();
    }
}
