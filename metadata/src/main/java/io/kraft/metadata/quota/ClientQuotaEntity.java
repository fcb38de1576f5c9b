package io.kraft.metadata.quota;

import io.kraft.proto.metadata.ClientQuotaRecord;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a client quota applies to: entity types ({@code user}, {@code client-id}, {@code ip}) with a name each, where a
 * null name is that type's default entity. Entries are ordered by type, so equal entities compare equal.
 */
public record ClientQuotaEntity(Map<String, String> names) {
    public static final String USER = "user";
    public static final String CLIENT_ID = "client-id";
    public static final String IP = "ip";
    /** How Kafka's tools print a default entity's name. */
    public static final String DEFAULT_TEXT = "<default>";

    public ClientQuotaEntity {
        names = Collections.unmodifiableMap(new TreeMap<>(names));
    }

    public static ClientQuotaEntity of(String user, String clientId) {
        Map<String, String> names = new TreeMap<>();
        names.put(USER, user);
        names.put(CLIENT_ID, clientId);
        return new ClientQuotaEntity(names);
    }

    public static ClientQuotaEntity user(String user) {
        return new ClientQuotaEntity(Collections.singletonMap(USER, user));
    }

    public static ClientQuotaEntity clientId(String clientId) {
        return new ClientQuotaEntity(Collections.singletonMap(CLIENT_ID, clientId));
    }

    public static ClientQuotaEntity fromRecord(List<ClientQuotaRecord.EntityData> entity) {
        Map<String, String> names = new TreeMap<>();
        for (ClientQuotaRecord.EntityData data : entity) {
            names.put(data.getEntityType(), data.hasEntityName() ? data.getEntityName() : null);
        }
        return new ClientQuotaEntity(names);
    }

    /** The entity part of a {@link ClientQuotaRecord}. */
    public List<ClientQuotaRecord.EntityData> toRecord() {
        return names.entrySet().stream().map(entry -> {
            ClientQuotaRecord.EntityData.Builder data = ClientQuotaRecord.EntityData.newBuilder()
                    .setEntityType(entry.getKey());
            if (entry.getValue() != null) {
                data.setEntityName(entry.getValue());
            }
            return data.build();
        }).toList();
    }

    /** A stable text that names this entity uniquely (lengths make any name safe), for store keys. */
    public String key() {
        StringBuilder key = new StringBuilder();
        names.forEach((type, name) -> {
            key.append(type.length()).append(':').append(type);
            key.append(name == null ? "-" : name.length() + ":" + name);
            key.append(';');
        });
        return key.toString();
    }

    /** As kafka-configs.sh prints it: {@code user=alice, client-id=<default>}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        names.forEach((type, name) -> {
            if (!text.isEmpty()) {
                text.append(", ");
            }
            text.append(type).append('=').append(name == null ? DEFAULT_TEXT : name);
        });
        return text.toString();
    }
}
