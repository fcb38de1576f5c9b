package io.kraft.metadata.image;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.quota.ClientQuotaEntity;
import io.kraft.proto.metadata.ClientQuotaRecord;
import io.kraft.proto.metadata.MetadataRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Every entity's client quotas (key to value). The map is persistent: an image after a delta shares the rest. */
public record ClientQuotasImage(Map<ClientQuotaEntity, Map<String, Double>> quotas) {
    public static final ClientQuotasImage EMPTY = new ClientQuotasImage(PersistentMaps.empty());

    public ClientQuotasImage {
        quotas = PersistentMaps.of(quotas);
    }

    public boolean isEmpty() {
        return quotas.isEmpty();
    }

    /** This entity's quotas, empty if it has none. */
    public Map<String, Double> quotas(ClientQuotaEntity entity) {
        return quotas.getOrDefault(entity, Map.of());
    }

    /** One record per entity and key, ordered by entity and key. */
    public List<MetadataRecord> toRecords() {
        List<MetadataRecord> records = new ArrayList<>();
        quotas.entrySet().stream()
                .sorted(Comparator.comparing(entry -> entry.getKey().key()))
                .forEach(entry -> new TreeMap<>(entry.getValue()).forEach((key, value) -> records.add(
                        MetadataRecords.of(ClientQuotaRecord.newBuilder().addAllEntity(entry.getKey().toRecord())
                                .setKey(key).setValue(value).build()))));
        return records;
    }
}
