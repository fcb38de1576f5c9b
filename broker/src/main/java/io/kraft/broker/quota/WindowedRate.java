package io.kraft.broker.quota;

/**
 * A rate over Kafka's sampled windows: values are added to the current sample, which starts a new one once it is a
 * window old; samples older than all windows together are forgotten; the rate divides the remaining total by the time
 * since the oldest sample began, but by no less than all windows but one, so a burst on a fresh rate is not measured
 * over a few milliseconds. Thread-safe.
 */
final class WindowedRate {
    private final QuotaWindows windows;
    private final long[] starts;
    private final double[] values;
    private int current;

    WindowedRate(QuotaWindows windows, long nowMs) {
        this.windows = windows;
        this.starts = new long[windows.samples()];
        this.values = new double[windows.samples()];
        java.util.Arrays.fill(starts, nowMs);
    }

    /** Adds a value at {@code nowMs}. */
    synchronized void record(double value, long nowMs) {
        if (nowMs - starts[current] >= windows.windowMs()) {
            current = (current + 1) % starts.length;
            starts[current] = nowMs;
            values[current] = 0;
        }
        values[current] += value;
    }

    /** Units per second at {@code nowMs}. */
    synchronized double perSecond(long nowMs) {
        return total(nowMs) * 1000.0 / windowMs(nowMs);
    }

    /** The span (ms) the rate is measured over at {@code nowMs}. */
    synchronized long windowMs(long nowMs) {
        purge(nowMs);
        long oldest = nowMs;
        for (long start : starts) {
            oldest = Math.min(oldest, start);
        }
        long elapsed = nowMs - oldest;
        long fullWindows = elapsed / windows.windowMs();
        long minFullWindows = starts.length - 1L;
        if (fullWindows < minFullWindows) {
            elapsed += (minFullWindows - fullWindows) * windows.windowMs();
        }
        return Math.max(elapsed, 1);
    }

    private double total(long nowMs) {
        purge(nowMs);
        double total = 0;
        for (double value : values) {
            total += value;
        }
        return total;
    }

    private void purge(long nowMs) {
        long expireAgeMs = starts.length * windows.windowMs();
        for (int i = 0; i < starts.length; i++) {
            if (nowMs - starts[i] >= expireAgeMs) {
                starts[i] = nowMs;
                values[i] = 0;
            }
        }
    }
}
