package io.kraft.broker.group.consumer;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** A server-side assignor (KIP-848 {@code group.consumer.assignors}): the group's target assignment from its members. */
public interface PartitionAssignor {

    /** A member as an assignor sees it: its id and the topics it subscribes to. */
    record Subscriber(String memberId, Set<UUID> topics) {
    }

    /** The name clients choose it by ({@code group.remote.assignor}). */
    String name();

    /**
     * The new target of every member.
     *
     * @param members sorted by member id
     * @param topics  the subscribed topics that exist
     * @param current the previous target, to keep partitions where they are when that stays balanced
     */
    Map<String, Assignment> assign(List<Subscriber> members, Map<UUID, TopicInfo> topics,
                                   Map<String, Assignment> current);
}
