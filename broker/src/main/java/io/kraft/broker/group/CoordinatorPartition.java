package io.kraft.broker.group;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One {@code __consumer_offsets} partition this broker leads: its leader epoch, whether it is still loading, its groups. */
final class CoordinatorPartition {
    private final int partition;
    private int leaderEpoch;
    private boolean loading = true;
    private final Map<String, ClassicGroup> groups = new HashMap<>();
    /** The groups each producer wrote transactional offsets to, until its transaction's marker. */
    private final Map<Long, Set<String>> groupsByProducer = new HashMap<>();
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

    /** Remembers that the producer's open transaction wrote offsets of the group. */
    void producerWroteTo(long producerId, String groupId) {
        groupsByProducer.computeIfAbsent(producerId, id -> new HashSet<>()).add(groupId);
    }

    /** The groups the producer's transaction wrote to, forgotten now that its marker is written. */
    Set<String> groupsWrittenBy(long producerId) {
        Set<String> groups = groupsByProducer.remove(producerId);
        return groups == null ? Set.of() : groups;
    }

    Collection<ClassicGroup> groups() {
        return groups.values();
    }
}
