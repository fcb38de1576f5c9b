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

/** The configuration overrides set for topics and brokers: only keys explicitly set, never defaults. */
public record ConfigurationsImage(Map<ConfigResource, Map<String, String>> configs) {
    public static final ConfigurationsImage EMPTY = new ConfigurationsImage(Map.of());

    public ConfigurationsImage {
        Map<ConfigResource, Map<String, String>> copy = new HashMap<>();
        configs.forEach((resource, keys) -> {
            if (!keys.isEmpty()) {
                copy.put(resource, Map.copyOf(keys));
            }
        });
        configs = Map.copyOf(copy);
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
