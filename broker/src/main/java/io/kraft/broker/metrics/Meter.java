package io.kraft.broker.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;

/**
 * A count of events (messages, bytes, requests): a Prometheus counter, and in JMX a Kafka meter with its count and
 * its mean, 1-, 5- and 15-minute rates per second.
 */
public final class Meter {
    private final MetricName name;
    private final CounterDataPoint counter;
    private final String eventType;
    private final EwmaRates rates;

    Meter(MetricName name, CounterDataPoint counter, String eventType, long nowNanos) {
        this.name = name;
        this.counter = counter;
        this.eventType = eventType;
        this.rates = new EwmaRates(nowNanos);
    }

    /** Counts {@code events} more. */
    public void mark(long events) {
        counter.inc(events);
    }

    /** Counts one more. */
    public void mark() {
        counter.inc();
    }

    public long count() {
        return counter.getLongValue();
    }

    public MetricName name() {
        return name;
    }

    String eventType() {
        return eventType;
    }

    EwmaRates rates() {
        return rates;
    }
}
