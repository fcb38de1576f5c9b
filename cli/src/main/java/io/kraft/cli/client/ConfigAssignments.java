package io.kraft.cli.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kafka's {@code --add-config} syntax: {@code k1=v1,k2=[a,b],k3=v3}. Commas separate assignments, except
 * inside square brackets, which hold a list value (written to the broker without the brackets).
 */
public final class ConfigAssignments {
    private ConfigAssignments() {
    }

    /**
     * The assignments in order.
     *
     * @throws IllegalArgumentException naming an assignment without '=' or with unbalanced brackets
     */
    public static Map<String, String> parse(String text) {
        Map<String, String> assignments = new LinkedHashMap<>();
        for (String item : splitOutsideBrackets(text)) {
            if (item.isBlank()) {
                continue;
            }
            int equals = item.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("Invalid config '" + item + "': expected key=value");
            }
            String value = item.substring(equals + 1).trim();
            if (value.startsWith("[") && value.endsWith("]")) {
                value = value.substring(1, value.length() - 1);
            }
            assignments.put(item.substring(0, equals).trim(), value);
        }
        return assignments;
    }

    /** Comma-separated keys, as {@code --delete-config} takes them. */
    public static List<String> keys(String text) {
        List<String> keys = new ArrayList<>();
        for (String key : text.split(",")) {
            if (!key.isBlank()) {
                keys.add(key.trim());
            }
        }
        return keys;
    }

    private static List<String> splitOutsideBrackets(String text) {
        List<String> items = new ArrayList<>();
        int depth = 0;
        StringBuilder current = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
                if (depth < 0) {
                    throw new IllegalArgumentException("Unbalanced ']' in config '" + text + "'");
                }
            }
            if (c == ',' && depth == 0) {
                items.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException("Unbalanced '[' in config '" + text + "'");
        }
        items.add(current.toString());
        return items;
    }
}
