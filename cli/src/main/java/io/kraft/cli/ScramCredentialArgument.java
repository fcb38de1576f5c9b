package io.kraft.cli;

import io.kraft.metadata.image.ScramMechanism;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * SCRAM credentials as kafka-storage.sh {@code --add-scram} and kafka-configs.sh {@code --add-config} write them:
 * {@code SCRAM-SHA-256=[name=alice,password=alice-secret]}, several joined by commas, with {@code iterations}
 * (default 4096) and, where the user is named elsewhere, no {@code name}. Values may be in double quotes.
 */
record ScramCredentialArgument(ScramMechanism mechanism, Optional<String> name, String password, int iterations) {
    static final int DEFAULT_ITERATIONS = 4096;

    /** Never the password. */
    @Override
    public String toString() {
        return mechanism + "[name=" + name.orElse("") + ",iterations=" + iterations + "]";
    }

    /**
     * Parses {@code MECHANISM=[key=value,...]} entries separated by commas.
     *
     * @throws IllegalArgumentException with a one-line message naming the problem (never the password)
     */
    static List<ScramCredentialArgument> parseAll(String text) {
        List<ScramCredentialArgument> parsed = new ArrayList<>();
        int at = 0;
        while (at < text.length()) {
            int equals = text.indexOf('=', at);
            int open = equals < 0 ? -1 : text.indexOf('[', equals);
            int close = open < 0 ? -1 : closing(text, open);
            if (equals < 0 || open != equals + 1 || close < 0) {
                throw new IllegalArgumentException("expected MECHANISM=[key=value,...] (e.g."
                        + " SCRAM-SHA-256=[name=alice,password=alice-secret]) at '" + text.substring(at).split("=", 2)[0]
                        + "'");
            }
            String mechanismName = text.substring(at, equals).trim();
            ScramMechanism mechanism = ScramMechanism.forMechanismName(mechanismName).orElseThrow(() ->
                    new IllegalArgumentException("unknown SCRAM mechanism '" + mechanismName
                            + "': expected SCRAM-SHA-256 or SCRAM-SHA-512"));
            parsed.add(of(mechanism, fields(text.substring(open + 1, close))));
            at = close + 1;
            if (at < text.length()) {
                if (text.charAt(at) != ',') {
                    throw new IllegalArgumentException("expected ',' between credentials after " + mechanismName);
                }
                at++;
            }
        }
        return parsed;
    }

    private static ScramCredentialArgument of(ScramMechanism mechanism, Map<String, String> fields) {
        for (String key : fields.keySet()) {
            if (!List.of("name", "password", "iterations").contains(key)) {
                throw new IllegalArgumentException("unknown key '" + key + "' in " + mechanism
                        + "=[...]: expected name, password and iterations");
            }
        }
        String password = fields.get("password");
        if (password == null || password.isEmpty()) {
            throw new IllegalArgumentException(mechanism + "=[...] needs password=...");
        }
        int iterations = DEFAULT_ITERATIONS;
        if (fields.containsKey("iterations")) {
            try {
                iterations = Integer.parseInt(fields.get("iterations"));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("iterations of " + mechanism + " must be a number, not '"
                        + fields.get("iterations") + "'");
            }
        }
        if (iterations < ScramMechanism.MIN_ITERATIONS || iterations > ScramMechanism.MAX_ITERATIONS) {
            throw new IllegalArgumentException("iterations of " + mechanism + " must be from "
                    + ScramMechanism.MIN_ITERATIONS + " to " + ScramMechanism.MAX_ITERATIONS + ", not " + iterations);
        }
        return new ScramCredentialArgument(mechanism, Optional.ofNullable(fields.get("name")), password, iterations);
    }

    private static int closing(String text, int open) {
        boolean quoted = false;
        for (int i = open + 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ']' && !quoted) {
                return i;
            }
        }
        return -1;
    }

    private static Map<String, String> fields(String inner) {
        Map<String, String> fields = new LinkedHashMap<>();
        StringBuilder current = new StringBuilder();
        List<String> parts = new ArrayList<>();
        boolean quoted = false;
        for (char c : inner.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                parts.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        parts.add(current.toString());
        for (String part : parts) {
            int equals = part.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("expected key=value inside [...], got a part without '='");
            }
            fields.put(part.substring(0, equals).trim(), part.substring(equals + 1));
        }
        return fields;
    }
}
