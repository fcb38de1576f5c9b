package io.kraft.metadata.sim;

import io.kraft.metadata.loop.Time;
import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * The single source of time and randomness in a simulation: runs events in (time, insertion) order, one at a time,
 * and is the {@link Time} every simulated controller reads. Keeps the last events run for failure reports.
 */
final class SimScheduler implements Time {
    /** Wall-clock time at simulated time 0, so that wall-clock readings look like real ones. */
    private static final long WALL_CLOCK_ORIGIN_MS = 1_700_000_000_000L;
    private static final int TRACE_LENGTH = Integer.getInteger("kraft.trace", 40);

    private record Event(long timeMs, long sequence, String description, Runnable action) {
    }

    private final PriorityQueue<Event> queue = new PriorityQueue<>((a, b) -> a.timeMs != b.timeMs
            ? Long.compare(a.timeMs, b.timeMs) : Long.compare(a.sequence, b.sequence));
    private final ArrayDeque<String> trace = new ArrayDeque<>();
    private final Random random;
    private long nowMs;
    private long sequence;
    private long eventsRun;

    SimScheduler(long seed) {
        this.random = new Random(seed);
    }

    /** Every random choice of the simulation comes from here, so a seed replays exactly. */
    Random random() {
        return random;
    }

    @Override
    public long wallClockMs() {
        return WALL_CLOCK_ORIGIN_MS + nowMs;
    }

    @Override
    public long monotonicMs() {
        return nowMs;
    }

    long nowMs() {
        return nowMs;
    }

    long eventsRun() {
        return eventsRun;
    }

    /** Runs {@code action} at {@code timeMs} (now if that has passed), after every event already due then. */
    void at(long timeMs, String description, Runnable action) {
        queue.add(new Event(Math.max(timeMs, nowMs), sequence++, description, action));
    }

    void after(long delayMs, String description, Runnable action) {
        at(nowMs + delayMs, description, action);
    }

    /** A random delay in [min, max] ms. */
    long delayMs(long minMs, long maxMs) {
        return minMs + (long) (random.nextDouble() * (maxMs - minMs + 1));
    }

    /** Runs the next event if it is due no later than {@code untilMs}; false (time moves to untilMs) when none is. */
    boolean runNext(long untilMs) {
        Event next = queue.peek();
        if (next == null || next.timeMs > untilMs) {
            nowMs = Math.max(nowMs, untilMs);
            return false;
        }
        queue.poll();
        nowMs = next.timeMs;
        eventsRun++;
        if (trace.size() == TRACE_LENGTH) {
            trace.poll();
        }
        trace.add(nowMs + " ms: " + next.description);
        next.action.run();
        return true;
    }

    /** The last events run, oldest first, one per line. */
    String trace() {
        return String.join("\n  ", trace);
    }
}
