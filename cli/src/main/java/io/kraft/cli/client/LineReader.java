package io.kraft.cli.client;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Kafka's console-producer reading of one input line: the whole line is the value, or with parse.key=true the
 * text before the first key.separator (default a tab) is the key and the rest the value.
 */
public final class LineReader {
    /** The --property names this reader understands. */
    public static final Set<String> PROPERTIES = Set.of("parse.key", "key.separator", "null.marker");

    /** A record's key (null when none) and value as bytes. */
    public record KeyValue(byte[] key, byte[] value) {
    }

    private final boolean parseKey;
    private final String keySeparator;
    private final String nullMarker;

    private LineReader(boolean parseKey, String keySeparator, String nullMarker) {
        this.parseKey = parseKey;
        this.keySeparator = keySeparator;
        this.nullMarker = nullMarker;
    }

    /**
     * A reader from --property values.
     *
     * @throws IllegalArgumentException naming an unknown property or an invalid value
     */
    public static LineReader of(Map<String, String> properties) {
        for (String name : properties.keySet()) {
            if (!PROPERTIES.contains(name)) {
                throw new IllegalArgumentException("Unknown --property " + name + "; known: "
                        + String.join(", ", new TreeSet<>(PROPERTIES)));
            }
        }
        String separator = RecordFormatter.unescape(properties.getOrDefault("key.separator", "\t"));
        if (separator.isEmpty()) {
            throw new IllegalArgumentException("--property key.separator must not be empty");
        }
        return new LineReader(RecordFormatter.flag(properties, "parse.key", false), separator,
                properties.get("null.marker"));
    }

    /**
     * The record a line stands for.
     *
     * @param lineNumber counted from 1, for the message
     * @throws IllegalArgumentException when keys are parsed and the line has no separator
     */
    public KeyValue read(String line, long lineNumber) {
        if (!parseKey) {
            return new KeyValue(null, bytes(line));
        }
        int at = line.indexOf(keySeparator);
        if (at < 0) {
            throw new IllegalArgumentException("No key separator '" + keySeparator.replace("\t", "\\t")
                    + "' found on line " + lineNumber + ": '" + line + "'");
        }
        return new KeyValue(bytes(line.substring(0, at)), bytes(line.substring(at + keySeparator.length())));
    }

    private byte[] bytes(String text) {
        return nullMarker != null && nullMarker.equals(text) ? null : text.getBytes(StandardCharsets.UTF_8);
    }
}
