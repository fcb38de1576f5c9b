package io.kraft.cli.partitions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Proposed replica assignments for {@code reassign-partitions --generate}: each partition keeps its replication
 * factor and gets replicas from the given brokers round-robin, the first replica (the preferred leader) moving one
 * broker on per partition so leaderships spread evenly.
 */
public final class ReplicaAssignments {
    private ReplicaAssignments() {
    }

    /**
     * @param current each partition's current replicas, in the order the proposal follows
     * @param brokers the brokers to use, in order
     * @throws PlanException if a partition has more replicas than there are brokers
     */
    public static Map<TopicPartition, List<Integer>> propose(Map<TopicPartition, List<Integer>> current,
                                                             List<Integer> brokers) {
        Map<TopicPartition, List<Integer>> proposal = new LinkedHashMap<>();
        int next = 0;
        for (Map.Entry<TopicPartition, List<Integer>> entry : current.entrySet()) {
            int replicationFactor = entry.getValue().size();
            if (replicationFactor > brokers.size()) {
                throw new PlanException("Replication factor: " + replicationFactor
                        + " larger than available brokers: " + brokers.size() + ".");
            }
            List<Integer> replicas = new ArrayList<>(replicationFactor);
            for (int i = 0; i < replicationFactor; i++) {
                replicas.add(brokers.get((next + i) % brokers.size()));
            }
            proposal.put(entry.getKey(), replicas);
            next = (next + 1) % brokers.size();
        }
        return proposal;
    }
}
