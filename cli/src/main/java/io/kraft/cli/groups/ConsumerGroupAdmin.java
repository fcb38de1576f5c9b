package io.kraft.cli.groups;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The consumer-group questions and changes of {@code kraft-cli groups}, asked of a cluster through one
 * kafka-clients {@link Admin}. Failures of the cluster calls surface as the ExecutionException the client gives;
 * conditions the user can act on (no such group, active group, unknown topic) as {@link GroupCommandException}.
 */
public final class ConsumerGroupAdmin {
    /** States in which nobody consumes, so offsets may be changed under the group (Dead: it does not exist). */
    private static final Set<GroupState> INACTIVE = Set.of(GroupState.EMPTY, GroupState.DEAD);
    private static final Comparator<TopicPartition> BY_TOPIC_AND_PARTITION =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    private final Admin admin;

    public ConsumerGroupAdmin(Admin admin) {
        this.admin = admin;
    }

    /** The consumer groups (classic and consumer protocol) by id, only those in {@code states} unless it is empty. */
    public List<GroupListing> listGroups(Set<GroupState> states) throws ExecutionException, InterruptedException {
        ListGroupsOptions options = ListGroupsOptions.forConsumerGroups();
        if (!states.isEmpty()) {
            options.inGroupStates(states);
        }
        List<GroupListing> groups = new ArrayList<>(admin.listGroups(options).all().get());
        groups.sort(Comparator.comparing(GroupListing::groupId));
        return groups;
    }

    /** The group's description, or empty when it does not exist (Kafka reports such a group as Dead). */
    public Optional<ConsumerGroupDescription> describe(String group) throws ExecutionException, InterruptedException {
        ConsumerGroupDescription description;
        try {
            description = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return Optional.empty();
            }
            throw e;
        }
        return description.groupState() == GroupState.DEAD ? Optional.empty() : Optional.of(description);
    }

    /** @throws GroupCommandException when the group does not exist */
    public ConsumerGroupDescription describeExisting(String group) throws ExecutionException, InterruptedException {
        return describe(group).orElseThrow(() -> new GroupCommandException(
                "Consumer group '" + group + "' does not exist."));
    }

    /** The group's committed offsets, by partition. */
    public Map<TopicPartition, Long> committedOffsets(String group) throws ExecutionException, InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> offsets =
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        Map<TopicPartition, Long> committed = new HashMap<>();
        // A partition the group has no offset for may come back with a null value.
        offsets.forEach((partition, offset) -> {
            if (offset != null && offset.offset() >= 0) {
                committed.put(partition, offset.offset());
            }
        });
        return committed;
    }

    /**
     * One row per partition the group has an offset on or a member is assigned, by topic then partition. A log
     * end offset that cannot be learned (the topic was deleted, say) is left unknown rather than failing the rest.
     */
    public List<PartitionLag> lag(ConsumerGroupDescription description) throws ExecutionException,
            InterruptedException {
        Map<TopicPartition, Long> committed = committedOffsets(description.groupId());
        Map<TopicPartition, MemberDescription> owners = new HashMap<>();
        for (MemberDescription member : description.members()) {
            member.assignment().topicPartitions().forEach(partition -> owners.put(partition, member));
        }
        Set<TopicPartition> partitions = new TreeSet<>(BY_TOPIC_AND_PARTITION);
        partitions.addAll(committed.keySet());
        partitions.addAll(owners.keySet());
        Map<TopicPartition, OptionalLong> logEnds = offsetsOrUnknown(partitions, OffsetSpec.latest());
        List<PartitionLag> rows = new ArrayList<>(partitions.size());
        for (TopicPartition partition : partitions) {
            Long offset = committed.get(partition);
            rows.add(new PartitionLag(description.groupId(), partition.topic(), partition.partition(),
                    offset == null ? OptionalLong.empty() : OptionalLong.of(offset), logEnds.get(partition),
                    Optional.ofNullable(owners.get(partition))));
        }
        return rows;
    }

    /**
     * Refuses a group with members: its consumers would overwrite (or be confused by) offsets changed under them.
     *
     * @throws GroupCommandException naming the group and its state
     */
    public void requireInactive(String group) throws ExecutionException, InterruptedException {
        Optional<ConsumerGroupDescription> description = describe(group);
        if (description.isPresent() && !INACTIVE.contains(description.get().groupState())) {
            int members = description.get().members().size();
            throw new GroupCommandException("Consumer group '" + group + "' is active (state "
                    + description.get().groupState() + ", " + members + (members == 1 ? " member" : " members")
                    + "): offsets can only be reset while the group is Empty; stop its consumers first.");
        }
    }

    /**
     * The partitions a reset applies to: each selection's listed partitions or all of its topic's; with none
     * given ({@code --all-topics}), every partition the group has committed offsets on.
     *
     * @throws GroupCommandException naming a topic that does not exist or a partition it does not have
     */
    public Set<TopicPartition> resetPartitions(String group, List<TopicSelection> selections)
            throws ExecutionException, InterruptedException {
        Set<TopicPartition> partitions = new TreeSet<>(BY_TOPIC_AND_PARTITION);
        if (selections.isEmpty()) {
            partitions.addAll(committedOffsets(group).keySet());
            return partitions;
        }
        Set<String> topics = selections.stream().map(TopicSelection::topic).collect(Collectors.toSet());
        Map<String, TopicDescription> descriptions = describeTopics(topics);
        for (TopicSelection selection : selections) {
            int partitionCount = descriptions.get(selection.topic()).partitions().size();
            if (selection.partitions().isEmpty()) {
                for (int p = 0; p < partitionCount; p++) {
                    partitions.add(new TopicPartition(selection.topic(), p));
                }
                continue;
            }
            for (int p : selection.partitions().get()) {
                if (p >= partitionCount) {
                    throw new GroupCommandException("Topic '" + selection.topic() + "' has no partition " + p
                            + " (it has " + partitionCount + ")");
                }
                partitions.add(new TopicPartition(selection.topic(), p));
            }
        }
        return partitions;
    }

    /**
     * The new offset of each partition, by topic then partition, computed from the logs' current bounds and the
     * group's committed offsets. Changes nothing.
     */
    public Map<TopicPartition, Long> planReset(String group, Set<TopicPartition> partitions,
                                               OffsetResetStrategy strategy)
            throws ExecutionException, InterruptedException {
        if (partitions.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, Long> committed = committedOffsets(group);
        Map<TopicPartition, Long> earliest = offsets(partitions, OffsetSpec.earliest());
        Map<TopicPartition, Long> latest = offsets(partitions, OffsetSpec.latest());
        OptionalLong lookupTimestampMs = strategy.lookupTimestampMs();
        Map<TopicPartition, Long> atTimestamp = lookupTimestampMs.isPresent()
                ? offsets(partitions, OffsetSpec.forTimestamp(lookupTimestampMs.getAsLong()))
                : Map.of();
        Map<TopicPartition, Long> plan = new TreeMap<>(BY_TOPIC_AND_PARTITION);
        for (TopicPartition partition : partitions) {
            Long committedOffset = committed.get(partition);
            Long timestampOffset = atTimestamp.get(partition);
            PartitionPosition position = new PartitionPosition(partition, earliest.get(partition),
                    latest.get(partition),
                    committedOffset == null ? OptionalLong.empty() : OptionalLong.of(committedOffset),
                    // ListOffsets answers -1 when no record is as new as the timestamp.
                    timestampOffset == null || timestampOffset < 0 ? OptionalLong.empty()
                            : OptionalLong.of(timestampOffset));
            plan.put(partition, strategy.newOffset(position));
        }
        return plan;
    }

    /** Commits the offsets for the (inactive) group, creating it if it does not exist yet. */
    public void commit(String group, Map<TopicPartition, Long> offsets) throws ExecutionException,
            InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> commits = new LinkedHashMap<>();
        offsets.forEach((partition, offset) -> commits.put(partition, new OffsetAndMetadata(offset)));
        admin.alterConsumerGroupOffsets(group, commits).all().get();
    }

    /** Deletes the groups; each maps to its own outcome: null when deleted, else why not. */
    public Map<String, Throwable> delete(Collection<String> groups) throws InterruptedException {
        Map<String, KafkaFuture<Void>> results = admin.deleteConsumerGroups(groups).deletedGroups();
        Map<String, Throwable> outcomes = new LinkedHashMap<>();
        for (String group : groups) {
            try {
                results.get(group).get();
                outcomes.put(group, null);
            } catch (ExecutionException e) {
                outcomes.put(group, e.getCause() == null ? e : e.getCause());
            }
        }
        return outcomes;
    }

    private Map<String, TopicDescription> describeTopics(Set<String> topics) throws ExecutionException,
            InterruptedException {
        Map<String, KafkaFuture<TopicDescription>> futures = admin.describeTopics(topics).topicNameValues();
        Map<String, TopicDescription> descriptions = new HashMap<>();
        for (String topic : new TreeSet<>(topics)) {
            try {
                descriptions.put(topic, futures.get(topic).get());
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    throw new GroupCommandException("Topic '" + topic + "' does not exist");
                }
                throw e;
            }
        }
        return descriptions;
    }

    private Map<TopicPartition, Long> offsets(Set<TopicPartition> partitions, OffsetSpec spec)
            throws ExecutionException, InterruptedException {
        Map<TopicPartition, ListOffsetsResultInfo> answers =
                admin.listOffsets(specs(partitions, spec)).all().get();
        Map<TopicPartition, Long> offsets = new HashMap<>();
        answers.forEach((partition, info) -> offsets.put(partition, info.offset()));
        return offsets;
    }

    private Map<TopicPartition, OptionalLong> offsetsOrUnknown(Set<TopicPartition> partitions, OffsetSpec spec)
            throws InterruptedException {
        Map<TopicPartition, OptionalLong> offsets = new HashMap<>();
        if (partitions.isEmpty()) {
            return offsets;
        }
        ListOffsetsResult result = admin.listOffsets(specs(partitions, spec));
        for (TopicPartition partition : partitions) {
            try {
                offsets.put(partition, OptionalLong.of(result.partitionResult(partition).get().offset()));
            } catch (ExecutionException e) {
                offsets.put(partition, OptionalLong.empty());
            }
        }
        return offsets;
    }

    private static Map<TopicPartition, OffsetSpec> specs(Set<TopicPartition> partitions, OffsetSpec spec) {
        return partitions.stream().collect(Collectors.toMap(Function.identity(), partition -> spec));
    }
}
