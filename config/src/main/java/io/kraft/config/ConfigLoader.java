package io.kraft.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Reads static settings the way a node starts: a properties file (java.util.Properties syntax,
 * UTF-8) plus {@code key=value} command-line overrides that win over the file.
 */
public final class ConfigLoader {
    private ConfigLoader() {
    }

    /**
     * Reads the file, applies the overrides and parses the result; every given value has source
     * {@link ConfigSource#STATIC_BROKER_CONFIG}.
     *
     * @param file      the properties file, or null to use the overrides alone
     * @param overrides {@code key=value} strings, later ones winning
     * @throws ConfigException if the file cannot be read, an override is malformed or a value is invalid
     */
    public static ParsedConfig load(ConfigDef definition, Path file, List<String> overrides) {
        Map<String, String> values = file == null ? new LinkedHashMap<>() : readProperties(file);
        values.putAll(parseOverrides(overrides));
        return definition.parse(values, ConfigSource.STATIC_BROKER_CONFIG);
    }

    /**
     * Reads a properties file as UTF-8 text.
     *
     * @throws ConfigException if the file is missing, unreadable, not UTF-8 or has a malformed escape
     */
    public static Map<String, String> readProperties(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException unreadable) {
            throw new ConfigException("Cannot read configuration file " + file + ": " + unreadable, unreadable);
        }
        // Properties is unordered; sorting makes warnings and errors come out in a stable order.
        Map<String, String> values = new LinkedHashMap<>();
        properties.stringPropertyNames().stream().sorted().forEach(name -> values.put(name, properties.getProperty(name)));
        return values;
    }

    /**
     * Splits {@code key=value} strings at their first '='; the key is trimmed, the value kept as given.
     *
     * @throws ConfigException if a string has no '=' or an empty key
     */
    public static Map<String, String> parseOverrides(List<String> overrides) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String override : Objects.requireNonNull(overrides, "overrides")) {
            int equals = override.indexOf('=');
            String key = equals < 0 ? "" : override.substring(0, equals).trim();
            if (key.isEmpty()) {
                throw new ConfigException("Invalid override " + override + ": expected key=value");
            }
            values.put(key, override.substring(equals + 1));
        }
        return values;
    }
}
