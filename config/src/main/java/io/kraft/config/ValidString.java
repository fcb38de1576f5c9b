package io.kraft.config;

import java.util.List;

/** A string drawn from a fixed set, compared with or without case. */
record ValidString(List<String> allowed, boolean ignoreCase) implements Validator {
    ValidString {
        if (allowed.isEmpty()) {
            throw new IllegalArgumentException("A set of allowed values must not be empty");
        }
        allowed = List.copyOf(allowed);
    }

    @Override
    public boolean accepts(Object value) {
        String text = (String) value;
        return allowed.stream().anyMatch(candidate -> ignoreCase ? candidate.equalsIgnoreCase(text) : candidate.equals(text));
    }

    @Override
    public String expectation() {
        return "in " + allowed + (ignoreCase ? " (case-insensitive)" : "");
    }

    @Override
    public boolean supports(ConfigType type) {
        return type == ConfigType.STRING;
    }
}
