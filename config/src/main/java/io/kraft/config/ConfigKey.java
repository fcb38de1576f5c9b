package io.kraft.config;

import java.util.Objects;

/**
 * One defined setting: its name, type, default, rule, importance and one-line documentation.
 *
 * @param defaultValue the typed default; null when the key is optional without a value
 * @param required     true when the key has no default and must be given
 * @param validator    the rule for given values and the default, or null for none
 */
public record ConfigKey(String name, ConfigType type, Object defaultValue, boolean required, Validator validator,
                        Importance importance, String doc) {

    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(importance, "importance");
        Objects.requireNonNull(doc, "doc");
        if (name.isBlank() || !name.equals(name.trim())) {
            throw new IllegalArgumentException("Configuration name '" + name + "' must be non-empty without surrounding spaces");
        }
        if (required && defaultValue != null) {
            throw new IllegalArgumentException("Required configuration " + name + " cannot have a default");
        }
        if (validator != null && !validator.supports(type)) {
            throw new IllegalArgumentException("Validator '" + validator.expectation() + "' of configuration " + name
                    + " cannot judge values of type " + type);
        }
    }

    /** Whether a value is present even when nothing sets the key. */
    public boolean hasDefault() {
        return defaultValue != null;
    }

    /** What a valid value looks like, e.g. "an int at least 14". */
    public String expectation() {
        return validator == null ? type.noun() : type.noun() + " " + validator.expectation();
    }

    /**
     * Parses and validates a raw value (text, or a Java value of the key's type).
     *
     * @throws ConfigException naming this key, the value and the expectation
     */
    public Object parse(Object raw) {
        Object value;
        try {
            value = type.parse(raw);
        } catch (IllegalArgumentException notOfType) {
            throw ConfigException.invalidValue(name, type.displayRaw(raw), expectation());
        }
        if (validator != null && !validator.accepts(value)) {
            throw ConfigException.invalidValue(name, type.display(value), expectation());
        }
        return value;
    }

    /** Shows a value of this key as configuration text, hiding passwords. */
    public String display(Object value) {
        return type.display(value);
    }
}
