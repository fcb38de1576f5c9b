package io.kraft.broker.group;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** One {@code __consumer_offsets} partition this broker leads: its leader epoch, whether it is still loading, its groups. */
final class CoordinatorPartition {
    private final int partition;
    private int leaderEpoch;
    private boolean loading = true;
    private final Map<String, ClassicGroup> groups = new HashMap<>();
    /** Transaction markers written while loading, applied once the load is done. */
    private List<CompletedTransaction> completedWhileLoading = new ArrayList<>();

    /** A producer's transaction that ended in this partition. */
    record CompletedTransaction(long producerId, boolean committed) {
    }

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

    /** Ends the load; returns the transactions that ended meanwhile, to apply to the loaded groups. */
    List<CompletedTransaction> loaded() {
        this.loading = false;
        List<CompletedTransaction> completed = completedWhileLoading;
        completedWhileLoading = List.of();
        return completed;
    }

    void completedWhileLoading(long producerId, boolean committed) {
        completedWhileLoading.add(new CompletedTransaction(producerId, committed));
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
