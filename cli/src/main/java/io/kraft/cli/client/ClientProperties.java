package io.kraft.cli.client;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * The properties a client command hands to kafka-clients: an optional properties file (Kafka's
 * {@code --command-config}), then {@code key=value} overrides, then the bootstrap servers.
 */
public final class ClientProperties {
    /** Where a user names their own Log4j 2 configuration, whose levels then stand. */
    private static final String LOG4J_CONFIGURATION = "log4j2.configurationFile";

    private ClientProperties() {
    }

    /**
     * Builds the client properties.
     *
     * @param file      a properties file, or null
     * @param overrides {@code key=value} texts, each winning over the file
     * @throws IllegalArgumentException naming an override without '='
     * @throws UncheckedIOException if the file cannot be read
     */
    public static Map<String, Object> of(String bootstrapServers, Path file, List<String> overrides) {
        Map<String, Object> properties = new LinkedHashMap<>();
        if (file != null) {
            Properties loaded = new Properties();
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                loaded.load(reader);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
            }
            loaded.stringPropertyNames().forEach(name -> properties.put(name, loaded.getProperty(name)));
        }
        properties.putAll(keyValues(overrides, "property"));
        properties.put("bootstrap.servers", bootstrapServers);
        return properties;
    }

    /**
     * Parses {@code key=value} texts (the value may contain '='), keeping their order.
     *
     * @param what what the texts are, for the message of a malformed one
     * @throws IllegalArgumentException naming a text without '=' or with an empty key
     */
    public static Map<String, String> keyValues(List<String> texts, String what) {
        Map<String, String> parsed = new LinkedHashMap<>();
        if (texts == null) {
            return parsed;
        }
        for (String text : texts) {
            int equals = text.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("Invalid " + what + " '" + text + "': expected key=value");
            }
            parsed.put(text.substring(0, equals).trim(), text.substring(equals + 1));
        }
        return parsed;
    }

    /**
     * Silences kafka-clients' own logging, so a command's output is only what it prints; a logging configuration
     * the user gave (-Dlog4j2.configurationFile) is kept as it is.
     */
    public static void quietClientLogging() {
        if (System.getProperty(LOG4J_CONFIGURATION) == null) {
            Configurator.setLevel("org.apache.kafka", Level.OFF);
        }
    }
}
