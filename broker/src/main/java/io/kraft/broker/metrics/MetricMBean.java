package io.kraft.broker.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;

/**
 * A metric as JMX shows it, with the attributes of Kafka's meters ({@code Count}, {@code MeanRate},
 * {@code OneMinuteRate}, ...), histograms ({@code Count}, {@code Mean}, {@code 99thPercentile}, ...) and gauges
 * ({@code Value}), so tools that read Kafka's beans read these unchanged. Read-only.
 */
final class MetricMBean implements DynamicMBean {
    private static final MBeanInfo GAUGE_INFO = info("gauge", Map.of("Value", () -> 0L), true);

    private final Map<String, Supplier<Object>> attributes;
    private final MBeanInfo info;

    /** @param gauge whether the values are a gauge's, which must not be read before they are asked for */
    private MetricMBean(String description, Map<String, Supplier<Object>> attributes, boolean gauge) {
        this(attributes, info(description, attributes, gauge));
    }

    private MetricMBean(Map<String, Supplier<Object>> attributes, MBeanInfo info) {
        this.attributes = attributes;
        this.info = info;
    }

    private static MBeanInfo info(String description, Map<String, Supplier<Object>> attributes, boolean gauge) {
        List<MBeanAttributeInfo> infos = new ArrayList<>();
        attributes.forEach((name, value) -> infos.add(new MBeanAttributeInfo(name,
                gauge ? Object.class.getName() : typeOf(value), name, true, false, false)));
        return new MBeanInfo(MetricMBean.class.getName(), description,
                infos.toArray(MBeanAttributeInfo[]::new), null, new MBeanOperationInfo[0], null);
    }

    static MetricMBean meter(Meter meter) {
        Map<String, Supplier<Object>> attributes = new LinkedHashMap<>();
        attributes.put("Count", meter::count);
        attributes.put("EventType", meter::eventType);
        attributes.put("RateUnit", () -> "SECONDS");
        attributes.put("MeanRate", () -> meter.rates().meanRate(meter.count(), System.nanoTime()));
        attributes.put("OneMinuteRate", () -> meter.rates().oneMinuteRate());
        attributes.put("FiveMinuteRate", () -> meter.rates().fiveMinuteRate());
        attributes.put("FifteenMinuteRate", () -> meter.rates().fifteenMinuteRate());
        return new MetricMBean("meter", attributes, false);
    }

    static MetricMBean timer(Timer timer) {
        Map<String, Supplier<Object>> attributes = new LinkedHashMap<>();
        attributes.put("Count", timer::count);
        attributes.put("Min", timer::min);
        attributes.put("Max", timer::max);
        attributes.put("Mean", timer::mean);
        attributes.put("StdDev", timer::stdDev);
        attributes.put("50thPercentile", () -> timer.percentile(0.50));
        attributes.put("75thPercentile", () -> timer.percentile(0.75));
        attributes.put("95thPercentile", () -> timer.percentile(0.95));
        attributes.put("98thPercentile", () -> timer.percentile(0.98));
        attributes.put("99thPercentile", () -> timer.percentile(0.99));
        attributes.put("999thPercentile", () -> timer.percentile(0.999));
        return new MetricMBean("histogram (ms)", attributes, false);
    }

    static MetricMBean gauge(DoubleSupplier value) {
        Map<String, Supplier<Object>> attributes = new LinkedHashMap<>();
        attributes.put("Value", () -> {
            double read = value.getAsDouble();
            return read == Math.rint(read) && Math.abs(read) < Long.MAX_VALUE ? (Object) (long) read : read;
        });
        // A gauge may read a component that is not started yet (or cache what it reads): only read when asked.
        // Every gauge describes itself alike: one shared description keeps a per-partition gauge small.
        return new MetricMBean(attributes, GAUGE_INFO);
    }

    private static String typeOf(Supplier<Object> value) {
        Object read = value.get();
        return read == null ? Object.class.getName() : read.getClass().getName();
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        Supplier<Object> value = attributes.get(attribute);
        if (value == null) {
            throw new AttributeNotFoundException(attribute);
        }
        return value.get();
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException(attribute.getName() + " is read-only");
    }

    @Override
    public AttributeList getAttributes(String[] names) {
        AttributeList list = new AttributeList();
        for (String name : names) {
            Supplier<Object> value = attributes.get(name);
            if (value != null) {
                list.add(new Attribute(name, value.get()));
            }
        }
        return list;
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) {
        throw new UnsupportedOperationException(actionName);
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        return info;
    }
}
