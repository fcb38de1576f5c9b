package io.kraft.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Raw settings from one place (a file, dynamic broker configs, topic overrides). When layers are
 * parsed together a later layer wins for the keys it sets.
 */
public record ConfigLayer(ConfigSource source, Map<String, String> values) {
    public ConfigLayer {
        Objects.requireNonNull(source, "source");
        // LinkedHashMap keeps the caller's order (for stable warnings) and tolerates copying any map.
        values = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(values, "values")));
    }
}
