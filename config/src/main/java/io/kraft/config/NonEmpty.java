package io.kraft.config;

import java.util.List;

/** A string or list that has content. */
enum NonEmpty implements Validator {
    STRING(ConfigType.STRING) {
        @Override
        public boolean accepts(Object value) {
            return !((String) value).isBlank();
        }
    },
    LIST(ConfigType.LIST) {
        @Override
        public boolean accepts(Object value) {
            return !((List<?>) value).isEmpty();
        }
    };

    private final ConfigType type;

    NonEmpty(ConfigType type) {
        this.type = type;
    }

    @Override
    public String expectation() {
        return "that is not empty";
    }

    @Override
    public boolean supports(ConfigType candidate) {
        return candidate == type;
    }
}
