package io.kraft.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The definitions of a component's settings and the parser that turns raw text into a typed
 * {@link ParsedConfig}. Define every key once (typically in a static initializer), then share it;
 * defining is not thread-safe, parsing is.
 */
public final class ConfigDef {
    /** Marks a key that has no default and must be given. */
    public static final Object NO_DEFAULT = new Object() {
        @Override
        public String toString() {
            return "NO_DEFAULT";
        }
    };

    private static final Logger log = LoggerFactory.getLogger(ConfigDef.class);

    private final Map<String, ConfigKey> keys = new LinkedHashMap<>();
    private final List<Predicate<String>> alsoKnown = new ArrayList<>();

    /**
     * Defines a key.
     *
     * @param defaultValue a value of the type (or its text), null for an optional key without a value,
     *                     or {@link #NO_DEFAULT} for a required key
     * @param validator    the rule for values, or null for none
     * @throws IllegalArgumentException if the name is taken, the default is invalid or the validator
     *                                  cannot judge the type
     */
    public ConfigDef define(String name, ConfigType type, Object defaultValue, Validator validator,
                            Importance importance, String doc) {
        boolean required = defaultValue == NO_DEFAULT;
        ConfigKey unchecked = new ConfigKey(name, type, null, required, validator, importance, doc);
        Object typedDefault = null;
        if (!required && defaultValue != null) {
            try {
                typedDefault = unchecked.parse(defaultValue);
            } catch (ConfigException invalid) {
                throw new IllegalArgumentException("Invalid default: " + invalid.getMessage(), invalid);
            }
        }
        return define(new ConfigKey(name, type, typedDefault, required, validator, importance, doc));
    }

    /** Defines a key whose values need no rule beyond their type. */
    public ConfigDef define(String name, ConfigType type, Object defaultValue, Importance importance, String doc) {
        return define(name, type, defaultValue, null, importance, doc);
    }

    /**
     * Defines a prepared key, e.g. one copied from another definition.
     *
     * @throws IllegalArgumentException if the name is taken or the default fails the key's rule
     */
    public ConfigDef define(ConfigKey key) {
        Objects.requireNonNull(key, "key");
        if (keys.containsKey(key.name())) {
            throw new IllegalArgumentException("Configuration " + key.name() + " is defined twice");
        }
        if (key.hasDefault()) {
            try {
                key.parse(key.defaultValue());
            } catch (ConfigException invalid) {
                throw new IllegalArgumentException("Invalid default: " + invalid.getMessage(), invalid);
            }
        }
        keys.put(key.name(), key);
        return this;
    }

    /**
     * Accepts the keys {@code known} matches without reporting them unknown: families of keys a component reads
     * itself, such as per-listener overrides ({@code listener.name.<name>.ssl.*}).
     */
    public ConfigDef alsoKnown(Predicate<String> known) {
        alsoKnown.add(known);
        return this;
    }

    /** Whether the name is defined. */
    public boolean contains(String name) {
        return keys.containsKey(name);
    }

    /**
     * The definition of a name.
     *
     * @throws IllegalArgumentException if the name is not defined
     */
    public ConfigKey key(String name) {
        ConfigKey key = keys.get(name);
        if (key == null) {
            throw new IllegalArgumentException("Configuration " + name + " is not defined");
        }
        return key;
    }

    /** Every definition, in definition order. */
    public Collection<ConfigKey> keys() {
        return Collections.unmodifiableCollection(keys.values());
    }

    /** Every defined name, in definition order. */
    public Set<String> names() {
        return Collections.unmodifiableSet(keys.keySet());
    }

    /**
     * Parses this definition's keys out of a whole node's properties, ignoring (without warning) the keys other
     * components define: how one component reads its settings from a shared properties file.
     */
    public ParsedConfig parseOwn(Map<String, String> properties, ConfigSource source) {
        Map<String, String> own = new LinkedHashMap<>();
        properties.forEach((key, value) -> {
            if (contains(key)) {
                own.put(key, value);
            }
        });
        return parse(own, source);
    }

    /** Parses raw values that all come from one source; see {@link #parse(List)}. */
    public ParsedConfig parse(Map<String, String> values, ConfigSource source) {
        return parse(List.of(new ConfigLayer(source, values)));
    }

    /**
     * Parses layered raw values, a later layer winning per key, into an immutable typed result.
     * Unknown keys are logged at WARN and reported by {@link ParsedConfig#unknownKeys()}.
     *
     * @throws ConfigException for the first invalid value or missing required key, in definition order
     */
    public ParsedConfig parse(List<ConfigLayer> layers) {
        Map<String, String> originals = new LinkedHashMap<>();
        Map<String, ConfigSource> givenSources = new LinkedHashMap<>();
        for (ConfigLayer layer : layers) {
            for (Map.Entry<String, String> entry : layer.values().entrySet()) {
                originals.put(entry.getKey(), entry.getValue());
                givenSources.put(entry.getKey(), layer.source());
            }
        }
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, ConfigSource> sources = new LinkedHashMap<>();
        for (ConfigKey key : keys.values()) {
            ConfigSource given = givenSources.get(key.name());
            if (given != null) {
                values.put(key.name(), key.parse(originals.get(key.name())));
                sources.put(key.name(), given);
            } else if (key.required()) {
                throw ConfigException.missing(key.name(), key.expectation());
            } else {
                values.put(key.name(), key.defaultValue());
                sources.put(key.name(), ConfigSource.DEFAULT_CONFIG);
            }
        }
        Set<String> unknownKeys = new LinkedHashSet<>();
        for (String name : originals.keySet()) {
            if (!keys.containsKey(name) && alsoKnown.stream().noneMatch(known -> known.test(name))) {
                unknownKeys.add(name);
                log.warn("Ignoring unknown configuration {}", name);
            }
        }
        return new ParsedConfig(keys.values(), values, sources, originals, unknownKeys);
    }
}
