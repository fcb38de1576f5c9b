package io.kraft.broker.quota;

import io.kraft.metadata.image.ClientQuotasImage;
import io.kraft.metadata.quota.ClientQuotaEntity;
import java.util.Map;

/**
 * Which quota applies to a (user, client id) pair, in Kafka's order: user and client id, user and default client id,
 * user, default user and client id, default user and default client id, default user, client id, default client id.
 * The first entity with the key wins; its shape decides whom the rate is shared by (the metric tags): a user-wide quota
 * is one rate for all the user's clients, a default is one rate per user or client id, not one for all of them.
 */
record QuotaResolution(double bound, String userTag, String clientIdTag) {
    static QuotaResolution resolve(ClientQuotasImage image, String key, String user, String clientId) {
        Double bound;
        if ((bound = value(image, ClientQuotaEntity.of(user, clientId), key)) != null
                || (bound = value(image, ClientQuotaEntity.of(user, null), key)) != null) {
            return new QuotaResolution(bound, user, clientId);
        }
        if ((bound = value(image, ClientQuotaEntity.user(user), key)) != null) {
            return new QuotaResolution(bound, user, "");
        }
        if ((bound = value(image, ClientQuotaEntity.of(null, clientId), key)) != null
                || (bound = value(image, ClientQuotaEntity.of(null, null), key)) != null) {
            return new QuotaResolution(bound, user, clientId);
        }
        if ((bound = value(image, ClientQuotaEntity.user(null), key)) != null) {
            return new QuotaResolution(bound, user, "");
        }
        if ((bound = value(image, ClientQuotaEntity.clientId(clientId), key)) != null
                || (bound = value(image, ClientQuotaEntity.clientId(null), key)) != null) {
            return new QuotaResolution(bound, "", clientId);
        }
        return null;
    }

    private static Double value(ClientQuotasImage image, ClientQuotaEntity entity, String key) {
        Map<String, Double> values = image.quotas().get(entity);
        return values == null ? null : values.get(key);
    }
}
