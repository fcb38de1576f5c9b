package io.kraft.metadata.image;

import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.proto.metadata.ConfigRecord;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Configuration keys set or deleted on top of a {@link ConfigurationsImage}. */
public final class ConfigurationsDelta {
    private final ConfigurationsImage image;
    // Optional.empty() marks a deleted key.
    private final Map<ConfigResource, Map<String, Optional<String>>> changes = new HashMap<>();

    public ConfigurationsDelta(ConfigurationsImage image) {
        this.image = image;
    }

    public ConfigurationsImage image() {
        return image;
    }

    /** Per resource, the keys changed in this delta: a value when set, empty when deleted. */
    public Map<ConfigResource, Map<String, Optional<String>>> changes() {
        return Collections.unmodifiableMap(changes);
    }

    /** The resource's set keys including this delta's changes (a copy; empty if none). */
    public Map<String, String> configs(ConfigResource resource) {
        Map<String, Optional<String>> changed = changes.get(resource);
        if (changed == null) {
            return image.configs(resource);
        }
        Map<String, String> merged = new HashMap<>(image.configs(resource));
        changed.forEach((key, value) -> {
            if (value.isPresent()) {
                merged.put(key, value.get());
            } else {
                merged.remove(key);
            }
        });
        return merged;
    }

    public void replay(ConfigRecord record) {
        ConfigResource resource;
        try {
            resource = new ConfigResource(ConfigResource.Type.fromProto(record.getResourceType()),
                    record.getResourceName());
        } catch (IllegalArgumentException e) {
            throw new InvalidMetadataRecordException(e.getMessage());
        }
        changes.computeIfAbsent(resource, r -> new HashMap<>())
                .put(record.getName(), record.hasValue() ? Optional.of(record.getValue()) : Optional.empty());
    }

    public ConfigurationsImage apply() {
        if (changes.isEmpty()) {
            return image;
        }
        PersistentMaps.Builder<ConfigResource, Map<String, String>> configs = PersistentMaps.edit(image.configs());
        changes.forEach((resource, keys) -> {
            Map<String, String> merged = new HashMap<>(image.configs(resource));
            keys.forEach((key, value) -> {
                if (value.isPresent()) {
                    merged.put(key, value.get());
                } else {
                    merged.remove(key);
                }
            });
            if (merged.isEmpty()) {
                configs.remove(resource);
            } else {
                configs.put(resource, Map.copyOf(merged));
            }
        });
        return new ConfigurationsImage(configs.build());
    }
}
