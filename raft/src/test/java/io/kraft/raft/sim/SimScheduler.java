package io.kraft.raft.sim;

import java.util.PriorityQueue;

/** The single source of time in a simulation: runs events in (time, insertion) order, one at a time. */
final class SimScheduler {
    private record Event(long time, long sequence, String description, Runnable action) {
    }

    private final PriorityQueue<Event> queue = new PriorityQueue<>((a, b) -> a.time != b.time
            ? Long.compare(a.time, b.time) : Long.compare(a.sequence, b.sequence));
    private long now;
    private long sequence;
    private long eventsRun;
    private String lastEvent = "(none)";

    long now() {
        return now;
    }

    long eventsRun() {
        return eventsRun;
    }

    String lastEvent() {
        return lastEvent;
    }

    void schedule(long delay, String description, Runnable action) {
        if (delay < 0) {
            throw new IllegalArgumentException("delay must be >= 0 but was " + delay);
        }
        queue.add(new Event(now + delay, sequence++, description, action));
    }

    /** Runs the next event if it is due no later than {@code until}; false when there is none. */
    boolean runNext(long until) {
        Event next = queue.peek();
        if (next == null || next.time > until) {
            now = Math.max(now, until);
            return false;
        }
        queue.poll();
        now = next.time;
        lastEvent = next.description;
        eventsRun++;
        next.action.run();
        return true;
    }
}
