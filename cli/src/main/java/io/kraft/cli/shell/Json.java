package io.kraft.cli.shell;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** Writes the shell's structured file contents as one-line JSON objects, so scripts can read them with jq. */
final class Json {
    private Json() {
    }

    /** An object of the entries in order; values are strings, numbers, booleans, lists, maps or empty optionals. */
    static String object(Map<String, ?> fields) {
        return fields.entrySet().stream().map(e -> string(e.getKey()) + ": " + value(e.getValue()))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    private static String value(Object value) {
        if (value == null || (value instanceof Optional<?> optional && optional.isEmpty())) {
            return "null";
        }
        if (value instanceof Optional<?> optional) {
            return value(optional.get());
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof List<?> list) {
            return list.stream().map(Json::value).collect(Collectors.joining(", ", "[", "]"));
        }
        if (value instanceof Map<?, ?> map) {
            @SuppressWarnings("unchecked")
            Map<String, ?> fields = (Map<String, ?>) map;
            return object(fields);
        }
        return string(value.toString());
    }

    static String string(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
