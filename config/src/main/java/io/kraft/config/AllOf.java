package io.kraft.config;

import java.util.List;
import java.util.stream.Collectors;

/** Several rules that must all hold. */
record AllOf(List<Validator> validators) implements Validator {
    AllOf {
        if (validators.isEmpty()) {
            throw new IllegalArgumentException("A composition needs at least one validator");
        }
        validators = List.copyOf(validators);
    }

    @Override
    public boolean accepts(Object value) {
        return validators.stream().allMatch(validator -> validator.accepts(value));
    }

    @Override
    public String expectation() {
        return validators.stream().map(Validator::expectation).collect(Collectors.joining(" and "));
    }

    @Override
    public boolean supports(ConfigType type) {
        return validators.stream().allMatch(validator -> validator.supports(type));
    }
}
