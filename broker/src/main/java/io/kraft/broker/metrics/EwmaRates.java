package io.kraft.broker.metrics;

import java.util.concurrent.TimeUnit;

/**
 * The rates a Kafka meter shows in JMX: exponentially weighted moving averages over 1, 5 and 15 minutes, updated
 * from the meter's count every {@value #TICK_SECONDS} seconds, and the mean rate since the meter was created.
 */
final class EwmaRates {
    static final long TICK_SECONDS = 5;
    private static final double ONE_MINUTE_ALPHA = alpha(1);
    private static final double FIVE_MINUTE_ALPHA = alpha(5);
    private static final double FIFTEEN_MINUTE_ALPHA = alpha(15);

    private final long createdNanos;
    private long lastCount;
    private boolean started;
    private volatile double oneMinute;
    private volatile double fiveMinute;
    private volatile double fifteenMinute;

    EwmaRates(long createdNanos) {
        this.createdNanos = createdNanos;
    }

    private static double alpha(int minutes) {
        return 1 - Math.exp(-TICK_SECONDS / 60.0 / minutes);
    }

    /** Folds in the events since the previous tick; called every {@value #TICK_SECONDS} s by one thread. */
    synchronized void tick(long count) {
        double perSecond = (count - lastCount) / (double) TICK_SECONDS;
        lastCount = count;
        if (!started) {
            oneMinute = perSecond;
            fiveMinute = perSecond;
            fifteenMinute = perSecond;
            started = true;
            return;
        }
        oneMinute += ONE_MINUTE_ALPHA * (perSecond - oneMinute);
        fiveMinute += FIVE_MINUTE_ALPHA * (perSecond - fiveMinute);
        fifteenMinute += FIFTEEN_MINUTE_ALPHA * (perSecond - fifteenMinute);
    }

    double meanRate(long count, long nowNanos) {
        double seconds = (nowNanos - createdNanos) / (double) TimeUnit.SECONDS.toNanos(1);
        return seconds <= 0 ? 0 : count / seconds;
    }

    double oneMinuteRate() {
        return oneMinute;
    }

    double fiveMinuteRate() {
        return fiveMinute;
    }

    double fifteenMinuteRate() {
        return fifteenMinute;
    }
}
