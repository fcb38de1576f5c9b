package io.kraft.metadata.image;

import io.kraft.metadata.quota.ClientQuotaEntity;
import io.kraft.proto.metadata.ClientQuotaRecord;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** Client quotas set or removed on top of a {@link ClientQuotasImage}. */
public final class ClientQuotasDelta {
    /** One quota key of one entity. */
    public record QuotaKey(ClientQuotaEntity entity, String key) {
    }

    private final ClientQuotasImage image;
    /** Each changed quota's new value; null for a removed one. */
    private final Map<QuotaKey, Double> changes = new LinkedHashMap<>();

    public ClientQuotasDelta(ClientQuotasImage image) {
        this.image = image;
    }

    /** Each quota this delta touched, with its value, or null if it was removed. */
    public Map<QuotaKey, Double> changes() {
        return Collections.unmodifiableMap(changes);
    }

    /** Removing a key the entity does not have is allowed (the controller does not track what is set). */
    public void replay(ClientQuotaRecord record) {
        ClientQuotaEntity entity = ClientQuotaEntity.fromRecord(record.getEntityList());
        changes.put(new QuotaKey(entity, record.getKey()), record.getRemove() ? null : record.getValue());
    }

    public ClientQuotasImage apply() {
        if (changes.isEmpty()) {
            return image;
        }
        Map<ClientQuotaEntity, Map<String, Double>> touched = new HashMap<>();
        changes.forEach((quota, value) -> {
            Map<String, Double> values = touched.computeIfAbsent(quota.entity(),
                    entity -> new HashMap<>(image.quotas(entity)));
            if (value == null) {
                values.remove(quota.key());
            } else {
                values.put(quota.key(), value);
            }
        });
        PersistentMaps.Builder<ClientQuotaEntity, Map<String, Double>> edits = PersistentMaps.edit(image.quotas());
        touched.forEach((entity, values) -> {
            if (values.isEmpty()) {
                edits.remove(entity);
            } else {
                edits.put(entity, Map.copyOf(values));
            }
        });
        return new ClientQuotasImage(edits.build());
    }
}
