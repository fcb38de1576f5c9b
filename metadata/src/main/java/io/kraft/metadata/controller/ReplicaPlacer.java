package io.kraft.metadata.controller;

import io.kraft.metadata.controller.BrokerLiveness.UsableBroker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Chooses replicas for new partitions: each partition's preferred leader is the usable broker leading fewest of
 * the partitions placed in this call, then with the fewest preferred leaderships in the cluster (then fewest
 * replicas), and each further replica is the least loaded broker, preferring racks the partition does not use yet
 * when brokers have racks. The new partitions' leaders are spread evenly first, as Kafka's striped placement does:
 * a topic's clients read and write through its leaders, so a topic of six partitions on three brokers led 3/2/1
 * (to even out an older single-partition topic) would bind its consumers to the busiest broker. The cluster's
 * counts then break ties, so load still balances across topics. Remaining ties are broken by a seeded shuffle so
 * that equal clusters do not always pile onto the lowest broker id.
 */
final class ReplicaPlacer {
    private ReplicaPlacer() {
    }

    /**
     * @param replicaCounts         replicas per broker id today (not modified)
     * @param preferredLeaderCounts preferred leaderships per broker id today (not modified)
     * @throws IllegalArgumentException if there are fewer usable brokers than the replication factor
     */
    static List<List<Integer>> place(int numPartitions, int replicationFactor, List<UsableBroker> brokers,
                                     Map<Integer, Integer> replicaCounts, Map<Integer, Integer> preferredLeaderCounts,
                                     Random random) {
        if (replicationFactor > brokers.size()) {
            throw new IllegalArgumentException("Replication factor " + replicationFactor + " exceeds the "
                    + brokers.size() + " usable brokers");
        }
        List<UsableBroker> order = new ArrayList<>(brokers);
        Collections.shuffle(order, random);
        Map<Integer, Integer> tieBreak = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            tieBreak.put(order.get(i).id(), i);
        }
        Map<Integer, Integer> replicas = new HashMap<>();
        Map<Integer, Integer> leaders = new HashMap<>();
        Map<Integer, Integer> placedLeaders = new HashMap<>();
        for (UsableBroker broker : brokers) {
            replicas.put(broker.id(), replicaCounts.getOrDefault(broker.id(), 0));
            leaders.put(broker.id(), preferredLeaderCounts.getOrDefault(broker.id(), 0));
        }
        boolean rackAware = brokers.stream().anyMatch(b -> b.rack().isPresent());
        List<List<Integer>> assignments = new ArrayList<>(numPartitions);
        for (int p = 0; p < numPartitions; p++) {
            List<Integer> chosen = new ArrayList<>(replicationFactor);
            Set<Optional<String>> usedRacks = new HashSet<>();
            UsableBroker leader = null;
            for (UsableBroker candidate : order) {
                if (leader == null || compareForLeader(candidate, leader, placedLeaders, leaders, replicas,
                        tieBreak) < 0) {
                    leader = candidate;
                }
            }
            add(leader, chosen, usedRacks, replicas);
            leaders.merge(leader.id(), 1, Integer::sum);
            placedLeaders.merge(leader.id(), 1, Integer::sum);
            while (chosen.size() < replicationFactor) {
                boolean unusedRackAvailable = rackAware && order.stream()
                        .anyMatch(b -> !chosen.contains(b.id()) && !usedRacks.contains(b.rack()));
                UsableBroker next = null;
                for (UsableBroker candidate : order) {
                    if (chosen.contains(candidate.id())
                            || (unusedRackAvailable && usedRacks.contains(candidate.rack()))) {
                        continue;
                    }
                    if (next == null || compare(candidate, next, Map.of(), replicas, tieBreak) < 0) {
                        next = candidate;
                    }
                }
                add(next, chosen, usedRacks, replicas);
            }
            assignments.add(chosen);
        }
        return assignments;
    }

    private static void add(UsableBroker broker, List<Integer> chosen, Set<Optional<String>> usedRacks,
                            Map<Integer, Integer> replicas) {
        chosen.add(broker.id());
        usedRacks.add(broker.rack());
        replicas.merge(broker.id(), 1, Integer::sum);
    }

    private static int compareForLeader(UsableBroker a, UsableBroker b, Map<Integer, Integer> placedLeaders,
                                        Map<Integer, Integer> leaders, Map<Integer, Integer> replicas,
                                        Map<Integer, Integer> tieBreak) {
        int byPlaced = Integer.compare(placedLeaders.getOrDefault(a.id(), 0), placedLeaders.getOrDefault(b.id(), 0));
        return byPlaced != 0 ? byPlaced : compare(a, b, leaders, replicas, tieBreak);
    }

    private static int compare(UsableBroker a, UsableBroker b, Map<Integer, Integer> leaders,
                               Map<Integer, Integer> replicas, Map<Integer, Integer> tieBreak) {
        int byLeaders = Integer.compare(leaders.getOrDefault(a.id(), 0), leaders.getOrDefault(b.id(), 0));
        if (byLeaders != 0) {
            return byLeaders;
        }
        int byReplicas = Integer.compare(replicas.get(a.id()), replicas.get(b.id()));
        return byReplicas != 0 ? byReplicas : Integer.compare(tieBreak.get(a.id()), tieBreak.get(b.id()));
    }
}
