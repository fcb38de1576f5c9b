package io.kraft.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The immutable, typed result of parsing raw settings against a {@link ConfigDef}: every defined key
 * has a value (null only for an unset optional key) and a source. Typed getters fail with
 * {@link IllegalArgumentException} when asked for an undefined key or the wrong type, which is a
 * programming error rather than bad input.
 */
public final class ParsedConfig {
    private final Map<String, ConfigKey> keys;
    private final Map<String, Object> values;
    private final Map<String, ConfigSource> sources;
    private final Map<String, String> originals;
    private final Set<String> unknownKeys;

    ParsedConfig(Collection<ConfigKey> keys, Map<String, Object> values, Map<String, ConfigSource> sources,
                 Map<String, String> originals, Set<String> unknownKeys) {
        // A snapshot of the keys: the definition may still grow, this result must not.
        Map<String, ConfigKey> byName = new LinkedHashMap<>();
        keys.forEach(key -> byName.put(key.name(), key));
        this.keys = Collections.unmodifiableMap(byName);
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.sources = Collections.unmodifiableMap(new LinkedHashMap<>(sources));
        this.originals = Collections.unmodifiableMap(new LinkedHashMap<>(originals));
        this.unknownKeys = Collections.unmodifiableSet(new LinkedHashSet<>(unknownKeys));
    }

    /**
     * The definition of a key this result holds.
     *
     * @throws IllegalArgumentException if the key was not defined when parsing
     */
    public ConfigKey key(String name) {
        ConfigKey key = keys.get(name);
        if (key == null) {
            throw new IllegalArgumentException("Configuration " + name + " is not defined");
        }
        return key;
    }

    /** Every defined name, in definition order. */
    public Set<String> names() {
        return keys.keySet();
    }

    /** The typed value of a key, or null for an unset optional key. */
    public Object get(String name) {
        key(name);
        return values.get(name);
    }

    public Boolean getBoolean(String name) {
        return typed(name, ConfigType.BOOLEAN, Boolean.class);
    }

    public String getString(String name) {
        return typed(name, ConfigType.STRING, String.class);
    }

    public Integer getInt(String name) {
        return typed(name, ConfigType.INT, Integer.class);
    }

    public Short getShort(String name) {
        return typed(name, ConfigType.SHORT, Short.class);
    }

    public Long getLong(String name) {
        return typed(name, ConfigType.LONG, Long.class);
    }

    public Double getDouble(String name) {
        return typed(name, ConfigType.DOUBLE, Double.class);
    }

    /** An unmodifiable list of trimmed items. */
    @SuppressWarnings("unchecked")
    public List<String> getList(String name) {
        return typed(name, ConfigType.LIST, List.class);
    }

    public Password getPassword(String name) {
        return typed(name, ConfigType.PASSWORD, Password.class);
    }

    /** Where the key's value came from; {@link ConfigSource#DEFAULT_CONFIG} when nothing set it. */
    public ConfigSource source(String name) {
        key(name);
        return sources.get(name);
    }

    /** Whether some layer set the key, rather than the value being the default. */
    public boolean isSet(String name) {
        return source(name) != ConfigSource.DEFAULT_CONFIG;
    }

    /** Every defined key with its value and source, in definition order; passwords stay hidden when shown. */
    public List<ConfigValue> describe() {
        List<ConfigValue> described = new ArrayList<>(values.size());
        for (ConfigKey key : keys.values()) {
            Object value = values.get(key.name());
            described.add(new ConfigValue(key.name(), value, sources.get(key.name()), key.name(), key.display(value)));
        }
        return List.copyOf(described);
    }

    /**
     * The raw text of every key that was given, known or not, a later layer winning. Holds password
     * text in the clear: pass it on, never log it.
     */
    public Map<String, String> originals() {
        return originals;
    }

    /** Given keys the definition does not know (each was logged at WARN). */
    public Set<String> unknownKeys() {
        return unknownKeys;
    }

    private <T> T typed(String name, ConfigType expected, Class<T> javaType) {
        ConfigKey key = key(name);
        if (key.type() != expected) {
            throw new IllegalArgumentException("Configuration " + name + " is of type " + key.type() + ", not " + expected);
        }
        return javaType.cast(values.get(name));
    }

    @Override
    public String toString() {
        StringJoiner shown = new StringJoiner(", ", "ParsedConfig{", "}");
        for (ConfigKey key : keys.values()) {
            shown.add(key.name() + "=" + key.display(values.get(key.name())));
        }
        if (!unknownKeys.isEmpty()) {
            shown.add("unknownKeys=" + unknownKeys);
        }
        return shown.toString();
    }
}
