package io.kraft.cli.client;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;

/**
 * Kafka's console-consumer text for one record: optional {@code CreateTime:ts}, {@code Partition:p},
 * {@code Offset:o}, headers and key, then the value, separated by key.separator, ending with line.separator.
 * Keys and values are shown as UTF-8 text.
 */
public final class RecordFormatter {
    /** The --property names this formatter understands. */
    public static final Set<String> PROPERTIES = Set.of("print.timestamp", "print.partition", "print.offset",
            "print.headers", "print.key", "print.value", "key.separator", "line.separator", "headers.separator",
            "null.literal");

    private final boolean printTimestamp;
    private final boolean printPartition;
    private final boolean printOffset;
    private final boolean printHeaders;
    private final boolean printKey;
    private final boolean printValue;
    private final String keySeparator;
    private final String lineSeparator;
    private final String headersSeparator;
    private final String nullLiteral;

    private RecordFormatter(Map<String, String> properties) {
        printTimestamp = flag(properties, "print.timestamp", false);
        printPartition = flag(properties, "print.partition", false);
        printOffset = flag(properties, "print.offset", false);
        printHeaders = flag(properties, "print.headers", false);
        printKey = flag(properties, "print.key", false);
        printValue = flag(properties, "print.value", true);
        keySeparator = unescape(properties.getOrDefault("key.separator", "\t"));
        lineSeparator = unescape(properties.getOrDefault("line.separator", "\n"));
        headersSeparator = unescape(properties.getOrDefault("headers.separator", ","));
        nullLiteral = properties.getOrDefault("null.literal", "null");
    }

    /**
     * A formatter from --property values.
     *
     * @throws IllegalArgumentException naming an unknown property or a flag that is not true/false
     */
    public static RecordFormatter of(Map<String, String> properties) {
        for (String name : properties.keySet()) {
            if (!PROPERTIES.contains(name)) {
                throw new IllegalArgumentException("Unknown --property " + name + "; known: "
                        + String.join(", ", new TreeSet<>(PROPERTIES)));
            }
        }
        return new RecordFormatter(properties);
    }

    public String format(ConsumerRecord<byte[], byte[]> record) {
        StringBuilder out = new StringBuilder();
        boolean first = true;
        if (printTimestamp) {
            first = field(out, first, record.timestampType() == TimestampType.NO_TIMESTAMP_TYPE ? "NO_TIMESTAMP"
                    : record.timestampType() + ":" + record.timestamp());
        }
        if (printPartition) {
            first = field(out, first, "Partition:" + record.partition());
        }
        if (printOffset) {
            first = field(out, first, "Offset:" + record.offset());
        }
        if (printHeaders) {
            StringBuilder headers = new StringBuilder();
            for (Header header : record.headers()) {
                if (!headers.isEmpty()) {
                    headers.append(headersSeparator);
                }
                headers.append(header.key()).append(':').append(text(header.value()));
            }
            first = field(out, first, headers.isEmpty() ? "NO_HEADERS" : headers.toString());
        }
        if (printKey) {
            first = field(out, first, text(record.key()));
        }
        if (printValue) {
            field(out, first, text(record.value()));
        }
        return out.append(lineSeparator).toString();
    }

    private boolean field(StringBuilder out, boolean first, String text) {
        if (!first) {
            out.append(keySeparator);
        }
        out.append(text);
        return false;
    }

    private String text(byte[] bytes) {
        return bytes == null ? nullLiteral : new String(bytes, StandardCharsets.UTF_8);
    }

    static boolean flag(Map<String, String> properties, String name, boolean defaultValue) {
        String value = properties.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new IllegalArgumentException("--property " + name + " must be true or false, not '" + value + "'");
    }

    /** Separators may be given as \t, \n or \r escapes, as the console tools accept them. */
    static String unescape(String text) {
        return text.replace("\\t", "\t").replace("\\n", "\n").replace("\\r", "\r");
    }
}
