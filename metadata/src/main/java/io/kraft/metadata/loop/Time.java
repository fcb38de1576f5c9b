package io.kraft.metadata.loop;

/**
 * The clock the controller and the metadata loader read, injected so that a simulation can run them on simulated
 * time. Timers and timeouts use {@link #monotonicMs()}, which never goes back; {@link #wallClockMs()} is for what
 * people read (log lines, times shown to operators).
 */
public interface Time {
    /** The system's clocks. */
    Time SYSTEM = new Time() {
        @Override
        public long wallClockMs() {
            return System.currentTimeMillis();
        }

        @Override
        public long monotonicMs() {
            return System.nanoTime() / 1_000_000;
        }
    };

    /** Milliseconds since the epoch, as wall clocks show; may jump. */
    long wallClockMs();

    /** Milliseconds from an arbitrary origin that never goes back: for deadlines and elapsed times. */
    long monotonicMs();
}
