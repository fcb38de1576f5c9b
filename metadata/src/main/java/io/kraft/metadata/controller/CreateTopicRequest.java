package io.kraft.metadata.controller;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One topic of a CreateTopics request.
 *
 * @param numPartitions     -1 for the num.partitions default; must be -1 with explicit assignments
 * @param replicationFactor -1 for the default.replication.factor default; must be -1 with explicit assignments
 * @param assignments       explicit replicas per partition id (0..n-1), or empty to let the controller place them
 * @param configs           topic config overrides
 */
public record CreateTopicRequest(String name, int numPartitions, int replicationFactor,
                                 Map<Integer, List<Integer>> assignments, Map<String, String> configs) {
    public CreateTopicRequest {
        Objects.requireNonNull(name, "name");
        assignments = Map.copyOf(assignments);
        assignments.values().forEach(Objects::requireNonNull);
        configs = Map.copyOf(configs);
    }

    /** A topic placed by the controller, without config overrides. */
    public static CreateTopicRequest of(String name, int numPartitions, int replicationFactor) {
        return new CreateTopicRequest(name, numPartitions, replicationFactor, Map.of(), Map.of());
    }
}
