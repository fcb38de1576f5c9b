package io.kraft.server.http;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.ConfigType;
import io.kraft.config.Importance;
import io.kraft.config.ParsedConfig;
import io.kraft.config.Validator;
import java.util.Map;
import java.util.Optional;

/**
 * {@code http.listener}: the HOST:PORT of the node's HTTP endpoint for metrics and health checks, or empty for none
 * (the default; the shipped configurations set it).
 */
public record HttpListenerConfig(Optional<String> host, int port) {
    public static final String HTTP_LISTENER = "http.listener";

    private static final ConfigDef DEFINITION = new ConfigDef()
            .define(HTTP_LISTENER, ConfigType.STRING, "", new HostPort(), Importance.MEDIUM,
                    "HOST:PORT of the node's HTTP endpoint: GET /metrics (Prometheus text format), /health/live and "
                            + "/health/ready. Empty disables it.");

    public static ConfigDef definition() {
        return DEFINITION;
    }

    /** The endpoint to serve, or empty when {@code http.listener} is empty or absent. */
    public static Optional<HttpListenerConfig> fromProperties(Map<String, String> properties) {
        ParsedConfig parsed = DEFINITION.parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG);
        String value = parsed.getString(HTTP_LISTENER);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        int colon = value.lastIndexOf(':');
        String host = value.substring(0, colon).trim();
        return Optional.of(new HttpListenerConfig(host.isEmpty() ? Optional.empty() : Optional.of(host),
                Integer.parseInt(value.substring(colon + 1).trim())));
    }

    /** Empty, or HOST:PORT with a port from 0 to 65535 (HOST may be empty: every interface). */
    private static final class HostPort implements Validator {
        @Override
        public boolean accepts(Object value) {
            String text = ((String) value).trim();
            if (text.isEmpty()) {
                return true;
            }
            int colon = text.lastIndexOf(':');
            if (colon < 0) {
                return false;
            }
            try {
                int port = Integer.parseInt(text.substring(colon + 1).trim());
                return port >= 0 && port <= 65_535;
            } catch (NumberFormatException e) {
                return false;
            }
        }

        @Override
        public String expectation() {
            return "HOST:PORT (port 0-65535) or empty";
        }

        @Override
        public boolean supports(ConfigType type) {
            return type == ConfigType.STRING;
        }
    }
}
