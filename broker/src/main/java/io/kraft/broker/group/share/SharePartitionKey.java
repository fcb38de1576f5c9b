package io.kraft.broker.group.share;

import java.util.UUID;

/** One topic partition as a share group consumes it. */
public record SharePartitionKey(String groupId, UUID topicId, int partition) {
}
