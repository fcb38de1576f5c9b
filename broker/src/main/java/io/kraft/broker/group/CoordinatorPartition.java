package io.kraft.broker.group;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/** One {@code __consumer_offsets} partition this broker leads: its leader epoch, whether it is still loading, its groups. */
final class CoordinatorPartition {
    private final int partition;
    private int leaderEpoch;
    private boolean loading = true;
    private final Map<String, ClassicGroup> groups = new HashMap<>();

    CoordinatorPartition(int partition, int leaderEpoch) {
        this.partition = partition;
        this.leaderEpoch = leaderEpoch;
    }

    int partition() {
        return partition;
    }

    int leaderEpoch() {
        return leaderEpoch;
    }

    void leaderEpoch(int epoch) {
        this.leaderEpoch = epoch;
    }

    boolean isLoading() {
        return loading;
    }

    void loaded() {
        this.loading = false;
    }

    ClassicGroup group(String groupId) {
        return groups.get(groupId);
    }

    void put(ClassicGroup group) {
        groups.put(group.groupId(), group);
    }

    void remove(String groupId) {
        groups.remove(groupId);
    }

    Collection<ClassicGroup> groups() {
        return groups.values();
    }
}
