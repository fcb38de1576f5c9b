package io.kraft.metadata.quota;

import java.util.Map;
import java.util.Set;

/**
 * Kafka's client quota keys and which entity shapes accept them: byte rates and request share for user/client-id
 * entities, {@code controller_mutation_rate} likewise, {@code connection_creation_rate} for ip entities only.
 */
public final class ClientQuotaKeys {
    public static final String PRODUCER_BYTE_RATE = "producer_byte_rate";
    public static final String CONSUMER_BYTE_RATE = "consumer_byte_rate";
    public static final String REQUEST_PERCENTAGE = "request_percentage";
    public static final String CONTROLLER_MUTATION_RATE = "controller_mutation_rate";
    public static final String CONNECTION_CREATION_RATE = "connection_creation_rate";

    private static final Set<String> CLIENT_KEYS = Set.of(PRODUCER_BYTE_RATE, CONSUMER_BYTE_RATE, REQUEST_PERCENTAGE,
            CONTROLLER_MUTATION_RATE);
    /** Keys whose value must be a whole number, as Kafka's LONG-typed quota configs. */
    private static final Set<String> WHOLE_KEYS = Set.of(PRODUCER_BYTE_RATE, CONSUMER_BYTE_RATE,
            CONNECTION_CREATION_RATE);

    private ClientQuotaKeys() {
    }

    /** Why an entity is not one quotas can apply to, or null if it is. */
    public static String invalidEntity(ClientQuotaEntity entity) {
        Map<String, String> names = entity.names();
        if (names.isEmpty()) {
            return "Invalid empty client quota entity";
        }
        for (Map.Entry<String, String> entry : names.entrySet()) {
            String type = entry.getKey();
            if (!type.equals(ClientQuotaEntity.USER) && !type.equals(ClientQuotaEntity.CLIENT_ID)
                    && !type.equals(ClientQuotaEntity.IP)) {
                return "Unhandled client quota entity type: " + type;
            }
            if (entry.getValue() != null && entry.getValue().isEmpty()) {
                return "Empty " + type + " not supported";
            }
        }
        if (names.containsKey(ClientQuotaEntity.IP) && names.size() > 1) {
            return "Invalid quota entity combination, IP entity should not be combined with User or ClientId";
        }
        return null;
    }

    /** Why this key and value cannot be set on this (valid) entity, or null if they can. */
    public static String invalidValue(ClientQuotaEntity entity, String key, double value) {
        boolean ip = entity.names().containsKey(ClientQuotaEntity.IP);
        boolean known = ip ? key.equals(CONNECTION_CREATION_RATE) : CLIENT_KEYS.contains(key);
        if (!known) {
            return "Invalid configuration key " + key;
        }
        if (Double.isNaN(value) || Double.isInfinite(value) || value <= 0) {
            return "Invalid value " + value + " for " + key + ": must be positive";
        }
        if (WHOLE_KEYS.contains(key) && value != Math.rint(value)) {
            return "Configuration " + key + " must be a Long value";
        }
        return null;
    }
}
