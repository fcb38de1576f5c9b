package io.kraft.metadata.controller;

import io.kraft.metadata.loop.EventLoop;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** A loop that runs its events only when a test says so, so that Raft's handovers pile up meanwhile. */
final class ManualEventLoop implements EventLoop {
    private record Timer(long deadlineMs, Runnable event, boolean[] cancelled) {
    }

    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private final List<Timer> timers = new ArrayList<>();

    @Override
    public boolean execute(String name, Runnable event) {
        queue.add(event);
        return true;
    }

    @Override
    public Scheduled schedule(String name, long deadlineMs, Runnable event) {
        boolean[] cancelled = new boolean[1];
        timers.add(new Timer(deadlineMs, event, cancelled));
        return () -> cancelled[0] = true;
    }

    @Override
    public boolean inLoop() {
        return true;
    }

    /** Runs the queued events, and those they queue, in order. */
    void runAll() {
        while (!queue.isEmpty()) {
            queue.poll().run();
        }
    }

    /** Runs the timers due at {@code nowMs} (and what they queue). */
    void runTimersDueAt(long nowMs) {
        List<Timer> due = timers.stream().filter(t -> t.deadlineMs() <= nowMs).toList();
        timers.removeAll(due);
        due.stream().filter(t -> !t.cancelled()[0]).forEach(t -> t.event().run());
        runAll();
    }

    @Override
    public void close() {
        runAll();
    }
}
