package io.kraft.metadata.image;

import io.kraft.metadata.MetadataRecords;
import io.kraft.proto.metadata.ConfigRecord;
import io.kraft.proto.metadata.MetadataRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The configuration overrides set for topics and brokers: only keys explicitly set, never defaults. The map of
 * resources is persistent, so a change to one resource's keys shares every other resource.
 */
public record ConfigurationsImage(Map<ConfigResource, Map<String, String>> configs) {
    public static final ConfigurationsImage EMPTY = new ConfigurationsImage(PersistentMaps.empty());

    /** A persistent map (what a delta builds: no empty resources, immutable keys) is kept; others are copied. */
    public ConfigurationsImage {
        if (!PersistentMaps.isPersistent(configs)) {
            Map<ConfigResource, Map<String, String>> copy = new HashMap<>();
            configs.forEach((resource, keys) -> {
                if (!keys.isEmpty()) {
                    copy.put(resource, Map.copyOf(keys));
                }
            });
            configs = PersistentMaps.of(copy);
        }
    }

    /** The resource's set keys, empty if none. */
    public Map<String, String> configs(ConfigResource resource) {
        return configs.getOrDefault(resource, Map.of());
    }

    /** One config record per set key, ordered by resource and key. */
    public List<MetadataRecord> toRecords() {
        List<MetadataRecord> records = new ArrayList<>();
        configs.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(Comparator.comparing(ConfigResource::type)
                        .thenComparing(ConfigResource::name)))
                .forEach(entry -> new TreeMap<>(entry.getValue()).forEach((key, value) ->
                        records.add(MetadataRecords.of(ConfigRecord.newBuilder()
                                .setResourceType(entry.getKey().type().toProto())
                                .setResourceName(entry.getKey().name())
                                .setName(key)
                                .setValue(value)
                                .build()))));
        return records;
    }
}
