package io.kraft.metadata.quota;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * DescribeClientQuotas' filter (KIP-546): every component must match the entity (an exact name, the default, or any
 * name of that type); a strict filter also refuses entities with types no component names.
 */
public record ClientQuotaFilter(List<Component> components, boolean strict) {
    /** Kafka's match types: 0 exact name, 1 the default entity, 2 any entity of the type. */
    public enum MatchType { EXACT, DEFAULT, ANY }

    /** One entity type to match; {@code match} is the name for {@link MatchType#EXACT}. */
    public record Component(String entityType, MatchType matchType, String match) {
    }

    public ClientQuotaFilter {
        components = List.copyOf(components);
    }

    /** Why this filter is not one Kafka accepts, or null if it is. */
    public String invalidReason() {
        Set<String> types = new HashSet<>();
        for (Component component : components) {
            String type = component.entityType();
            if (!type.equals(ClientQuotaEntity.USER) && !type.equals(ClientQuotaEntity.CLIENT_ID)
                    && !type.equals(ClientQuotaEntity.IP)) {
                return "Custom entity type '" + type + "' not supported";
            }
            if (!types.add(type)) {
                return "Duplicate " + type + " filter component entity type";
            }
            if (component.matchType() == MatchType.EXACT && component.match() == null) {
                return "Request specified MATCH_EXACT but no match for entity type " + type;
            }
        }
        if (types.contains(ClientQuotaEntity.IP) && types.size() > 1) {
            return "Invalid entity filter component combination, IP filter component should not be used with "
                    + "user or clientId filter component.";
        }
        return null;
    }

    public boolean matches(ClientQuotaEntity entity) {
        Map<String, String> names = entity.names();
        if (strict && names.size() != components.size()) {
            return false;
        }
        for (Component component : components) {
            if (!names.containsKey(component.entityType())) {
                return false;
            }
            String name = names.get(component.entityType());
            boolean matched = switch (component.matchType()) {
                case EXACT -> component.match().equals(name);
                case DEFAULT -> name == null;
                case ANY -> true;
            };
            if (!matched) {
                return false;
            }
        }
        return true;
    }
}
