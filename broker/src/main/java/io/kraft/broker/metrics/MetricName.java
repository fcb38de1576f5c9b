package io.kraft.broker.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * A metric's Kafka name, {@code domain:type=T,name=N[,tag=value...]} (e.g. {@code
 * kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=orders}), which is its JMX object name, and the
 * Prometheus family it belongs to: domain, type and name lowercased without {@code PerSec}, joined by underscores,
 * plus {@code _by_<tag>} for each tag, whose values become labels
 * ({@code kafka_server_brokertopicmetrics_messagesin_by_topic_total{topic="orders"}}; a timer's family ends in
 * {@code _ms}: {@code kafka_network_requestmetrics_totaltime_by_request_ms}). Families differ by tags because
 * Kafka publishes, say, MessagesInPerSec both for all topics and per topic: one family each keeps sums honest.
 */
public record MetricName(String domain, String type, String name, Map<String, String> tags) {
    /** Compiled once: every per-partition gauge's name passes through it. */
    private static final Pattern NOT_IN_NAME = Pattern.compile("[^a-z0-9_]");

    public MetricName {
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
    }

    /** A name without tags. */
    public static MetricName of(String domain, String type, String name) {
        return new MetricName(domain, type, name, Map.of());
    }

    /** This name with one more tag. */
    public MetricName tagged(String key, String value) {
        Map<String, String> more = new LinkedHashMap<>(tags);
        more.put(key, value);
        return new MetricName(domain, type, name, more);
    }

    /** The JMX object name; tag values are quoted where JMX needs it. */
    public ObjectName objectName() {
        StringBuilder text = new StringBuilder(domain).append(":type=").append(type).append(",name=").append(name);
        tags.forEach((key, value) -> text.append(',').append(key).append('=').append(jmxValue(value)));
        try {
            return new ObjectName(text.toString());
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("not a valid JMX name: " + text, e);
        }
    }

    /** The Prometheus family name, without a type suffix such as {@code _total}. */
    public String prometheusName() {
        // PerSec and Ms are the JMX view's units: a Prometheus counter counts, and a timer family ends in _ms.
        String base = name.endsWith("PerSec") ? name.substring(0, name.length() - "PerSec".length())
                : name.endsWith("TimeMs") ? name.substring(0, name.length() - "Ms".length()) : name;
        StringBuilder text = new StringBuilder(domain.replace('.', '_')).append('_').append(type).append('_')
                .append(base);
        for (String key : tags.keySet()) {
            text.append("_by_").append(key);
        }
        return NOT_IN_NAME.matcher(text.toString().toLowerCase(Locale.ROOT)).replaceAll("_");
    }

    /** The tag keys, which are the family's label names. */
    public String[] labelNames() {
        return tags.keySet().toArray(String[]::new);
    }

    /** The tag values, in label order. */
    public String[] labelValues() {
        return tags.values().toArray(String[]::new);
    }

    /** The values of the tags, as a list (a family's key for one data point). */
    List<String> labelValueList() {
        return List.copyOf(tags.values());
    }

    private static String jmxValue(String value) {
        boolean plain = value.chars().noneMatch(c -> c == ',' || c == '=' || c == ':' || c == '"' || c == '*'
                || c == '?' || c == '\n' || c == '\\');
        return plain ? value : ObjectName.quote(value);
    }
}
