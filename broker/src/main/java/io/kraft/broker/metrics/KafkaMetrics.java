package io.kraft.broker.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's metrics: one store (Prometheus client families, written out in Prometheus' text format) whose meters,
 * timers and gauges also show in JMX under Kafka's object names, so existing dashboards and {@code jmx_exporter}
 * configurations keep working. Registering a name twice returns the first metric.
 */
public final class KafkaMetrics implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaMetrics.class);
    /** Request-time buckets, in milliseconds. */
    static final double[] TIME_BUCKETS_MS = {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500,
            5_000, 10_000, 30_000, 60_000};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final MBeanServer mbeanServer;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Histogram> histograms = new ConcurrentHashMap<>();
    private final Map<String, GaugeFamily> gauges = new ConcurrentHashMap<>();
    private final Map<MetricName, Object> metrics = new ConcurrentHashMap<>();
    private final Map<MetricName, ObjectName> inJmx = new ConcurrentHashMap<>();
    private final ScheduledExecutorService ticker;
    private boolean jmxClashLogged;

    private KafkaMetrics(MBeanServer mbeanServer) {
        this.mbeanServer = mbeanServer;
        this.ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "kraft-metrics-ticker");
            thread.setDaemon(true);
            return thread;
        });
        ticker.scheduleAtFixedRate(this::tick, EwmaRates.TICK_SECONDS, EwmaRates.TICK_SECONDS, TimeUnit.SECONDS);
    }

    /** Metrics published in the platform MBean server as well. */
    public static KafkaMetrics forNode() {
        return new KafkaMetrics(ManagementFactory.getPlatformMBeanServer());
    }

    /** Metrics kept and written out, not published in JMX (several nodes in one JVM, tests). */
    public static KafkaMetrics withoutJmx() {
        return new KafkaMetrics(null);
    }

    /** The meter with this name, created at first use; {@code eventType} is what it counts (JMX's EventType). */
    public Meter meter(MetricName name, String eventType, String help) {
        return (Meter) metrics.computeIfAbsent(name, n -> {
            Counter family = counters.computeIfAbsent(n.prometheusName(), familyName -> Counter.builder()
                    .name(familyName).help(help).labelNames(n.labelNames()).withoutExemplars().register(registry));
            Meter meter = new Meter(n, family.labelValues(n.labelValues()), eventType, System.nanoTime());
            publish(n, MetricMBean.meter(meter));
            return meter;
        });
    }

    /** The timer with this name (durations in milliseconds), created at first use. */
    public Timer timer(MetricName name, String help) {
        return (Timer) metrics.computeIfAbsent(name, n -> {
            Histogram family = histograms.computeIfAbsent(n.prometheusName(), familyName -> Histogram.builder()
                    .name(familyName + "_ms").help(help).labelNames(n.labelNames()).withoutExemplars()
                    .classicOnly().classicUpperBounds(TIME_BUCKETS_MS).register(registry));
            Labels labels = Labels.of(n.labelNames(), n.labelValues());
            Timer timer = new Timer(n, family.labelValues(n.labelValues()), TIME_BUCKETS_MS,
                    () -> bucketCounts(family, labels));
            publish(n, MetricMBean.timer(timer));
            return timer;
        });
    }

    /** A value read when it is asked for (partition counts, a Raft epoch); registering the name again replaces it. */
    public void gauge(MetricName name, String help, DoubleSupplier value) {
        GaugeFamily family = gauges.computeIfAbsent(name.prometheusName(),
                n -> new GaugeFamily(n, help, name.labelNames(), registry));
        family.put(name.labelValueList(), value);
        metrics.put(name, value);
        publish(name, MetricMBean.gauge(value));
    }

    /** Forgets a metric (a deleted topic's); nothing happens for a name never registered. */
    public void remove(MetricName name) {
        Object metric = metrics.remove(name);
        if (metric == null) {
            return;
        }
        String family = name.prometheusName();
        if (metric instanceof Meter) {
            counters.get(family).remove(name.labelValues());
        } else if (metric instanceof Timer) {
            histograms.get(family).remove(name.labelValues());
        } else {
            gauges.get(family).remove(name.labelValueList());
        }
        unpublish(name);
    }

    /** Whether a metric of this name exists. */
    public boolean contains(MetricName name) {
        return metrics.containsKey(name);
    }

    /** Writes every metric in Prometheus' text format (version 0.0.4). */
    public void writePrometheus(OutputStream out) throws IOException {
        PrometheusTextFormatWriter.create().write(out, registry.scrape());
    }

    /** The content type of {@link #writePrometheus}. */
    public static String prometheusContentType() {
        return PrometheusTextFormatWriter.CONTENT_TYPE;
    }

    private void tick() {
        try {
            for (Object metric : metrics.values()) {
                if (metric instanceof Meter meter) {
                    meter.rates().tick(meter.count());
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Metric rates not updated: {}", e.toString());
        }
    }

    private static long[] bucketCounts(Histogram family, Labels labels) {
        HistogramSnapshot snapshot = family.collect();
        for (HistogramSnapshot.HistogramDataPointSnapshot point : snapshot.getDataPoints()) {
            if (point.getLabels().equals(labels)) {
                ClassicHistogramBuckets buckets = point.getClassicBuckets();
                long[] counts = new long[buckets.size()];
                for (int i = 0; i < counts.length; i++) {
                    counts[i] = buckets.getCount(i);
                }
                return counts;
            }
        }
        return new long[0];
    }

    private void publish(MetricName name, MetricMBean bean) {
        if (mbeanServer == null) {
            return;
        }
        ObjectName objectName = name.objectName();
        try {
            if (inJmx.containsKey(name)) {
                mbeanServer.unregisterMBean(objectName);
            }
            mbeanServer.registerMBean(bean, objectName);
            inJmx.put(name, objectName);
        } catch (javax.management.InstanceAlreadyExistsException e) {
            // Another node in this JVM published it first: JMX names carry no node id, as in Kafka.
            if (!jmxClashLogged) {
                jmxClashLogged = true;
                LOG.info("{} is already in JMX (another node in this JVM); this node's metrics are on its "
                        + "Prometheus endpoint only where they clash", objectName);
            }
        } catch (JMException e) {
            LOG.warn("Could not publish {} in JMX: {}", objectName, e.toString());
        }
    }

    private void unpublish(MetricName name) {
        ObjectName objectName = inJmx.remove(name);
        if (objectName == null) {
            return;
        }
        try {
            mbeanServer.unregisterMBean(objectName);
        } catch (JMException e) {
            LOG.debug("{} was already gone from JMX", objectName);
        }
    }

    /** Removes this node's metrics from JMX and stops the rates' ticker. */
    @Override
    public void close() {
        ticker.shutdownNow();
        for (MetricName name : List.copyOf(inJmx.keySet())) {
            unpublish(name);
        }
    }

    /** One gauge family: a value supplier per label values, read at scrape time. */
    private static final class GaugeFamily {
        private final Map<List<String>, DoubleSupplier> values = new ConcurrentHashMap<>();

        GaugeFamily(String name, String help, String[] labelNames, PrometheusRegistry registry) {
            GaugeWithCallback.builder().name(name).help(help).labelNames(labelNames)
                    .callback(callback -> values.forEach((labels, value) -> {
                        double read;
                        try {
                            read = value.getAsDouble();
                        } catch (RuntimeException e) {
                            return; // a component closing under the scrape: skip its value this time
                        }
                        callback.call(read, labels.toArray(String[]::new));
                    }))
                    .register(registry);
        }

        void put(List<String> labels, DoubleSupplier value) {
            values.put(labels, value);
        }

        void remove(List<String> labels) {
            values.remove(labels);
        }
    }
}
