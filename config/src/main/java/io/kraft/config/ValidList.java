package io.kraft.config;

import java.util.List;

/** A list whose items are all drawn from a fixed set, compared case-sensitively. */
record ValidList(List<String> allowed) implements Validator {
    ValidList {
        if (allowed.isEmpty()) {
            throw new IllegalArgumentException("A set of allowed items must not be empty");
        }
        allowed = List.copyOf(allowed);
    }

    @Override
    public boolean accepts(Object value) {
        return allowed.containsAll((List<?>) value);
    }

    @Override
    public String expectation() {
        return "with items in " + allowed;
    }

    @Override
    public boolean supports(ConfigType type) {
        return type == ConfigType.LIST;
    }
}
