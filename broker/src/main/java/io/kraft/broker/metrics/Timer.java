package io.kraft.broker.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * A distribution of durations in milliseconds (a request's total, queue, local, remote and send times): a
 * Prometheus histogram, and in JMX a Kafka histogram with count, min, max, mean, standard deviation and
 * percentiles (estimated within the histogram's buckets).
 */
public final class Timer {
    private final MetricName name;
    private final DistributionDataPoint histogram;
    private final double[] upperBoundsMs;
    private final java.util.function.Supplier<long[]> bucketCounts;
    private final AtomicLong minMicros = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong maxMicros = new AtomicLong(Long.MIN_VALUE);
    private final DoubleAdder sumOfSquares = new DoubleAdder();

    Timer(MetricName name, DistributionDataPoint histogram, double[] upperBoundsMs,
          java.util.function.Supplier<long[]> bucketCounts) {
        this.name = name;
        this.histogram = histogram;
        this.upperBoundsMs = upperBoundsMs;
        this.bucketCounts = bucketCounts;
    }

    /** Records one duration. */
    public void update(double millis) {
        histogram.observe(millis);
        long micros = (long) (millis * 1_000);
        if (micros < minMicros.get()) {
            minMicros.accumulateAndGet(micros, Math::min);
        }
        if (micros > maxMicros.get()) {
            maxMicros.accumulateAndGet(micros, Math::max);
        }
        sumOfSquares.add(millis * millis);
    }

    /** Records the time from {@code startNanos} to {@code endNanos}. */
    public void updateNanos(long startNanos, long endNanos) {
        update(Math.max(0, endNanos - startNanos) / 1_000_000.0);
    }

    public MetricName name() {
        return name;
    }

    public long count() {
        return histogram.getCount();
    }

    double mean() {
        long count = histogram.getCount();
        return count == 0 ? 0 : histogram.getSum() / count;
    }

    double min() {
        long micros = minMicros.get();
        return micros == Long.MAX_VALUE ? 0 : micros / 1_000.0;
    }

    double max() {
        long micros = maxMicros.get();
        return micros == Long.MIN_VALUE ? 0 : micros / 1_000.0;
    }

    double stdDev() {
        long count = histogram.getCount();
        if (count < 2) {
            return 0;
        }
        double mean = histogram.getSum() / count;
        return Math.sqrt(Math.max(0, sumOfSquares.sum() / count - mean * mean));
    }

    /**
     * The {@code quantile} (0-1) estimated from the bucket counts: linear within the bucket it falls in, capped by the
     * largest duration seen.
     */
    double percentile(double quantile) {
        long[] counts = bucketCounts.get();
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        if (total == 0) {
            return 0;
        }
        double rank = quantile * total;
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 0) {
                continue;
            }
            if (seen + counts[i] >= rank) {
                double lower = i == 0 ? 0 : upperBoundsMs[i - 1];
                double upper = i < upperBoundsMs.length ? upperBoundsMs[i] : max();
                double within = (rank - seen) / counts[i];
                return Math.min(max(), lower + (upper - lower) * within);
            }
            seen += counts[i];
        }
        return max();
    }
}
