package io.kraft.metadata.image;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The registered brokers by id (a persistent map: a registration change shares the other brokers). */
public record ClusterImage(Map<Integer, BrokerRegistration> brokers) {
    public static final ClusterImage EMPTY = new ClusterImage(PersistentMaps.empty());

    public ClusterImage {
        brokers = PersistentMaps.of(brokers);
    }

    /** The broker's registration, or null if it never registered. */
    public BrokerRegistration broker(int brokerId) {
        return brokers.get(brokerId);
    }

    /** Ids of registered brokers that are not fenced, ascending. */
    public Set<Integer> unfencedBrokerIds() {
        Set<Integer> ids = new TreeSet<>();
        brokers.values().stream().filter(b -> !b.fenced()).forEach(b -> ids.add(b.id()));
        return ids;
    }
}
