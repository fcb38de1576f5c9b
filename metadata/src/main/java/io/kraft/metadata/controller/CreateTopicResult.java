package io.kraft.metadata.controller;

import java.util.UUID;

/** A created topic's id and shape. */
public record CreateTopicResult(UUID topicId, int numPartitions, int replicationFactor) {
}
