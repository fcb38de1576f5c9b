package io.kraft.broker.group;

import io.kraft.broker.group.consumer.Assignment;
import io.kraft.broker.group.consumer.ConsumerGroup;
import io.kraft.broker.group.consumer.ConsumerGroupMember;
import io.kraft.broker.group.consumer.ConsumerGroupMember.ClassicMetadata;
import io.kraft.broker.group.consumer.ConsumerGroupMember.ClassicProtocol;
import io.kraft.broker.group.consumer.ConsumerGroupMember.CurrentAssignment;
import io.kraft.broker.group.consumer.ConsumerGroupMember.Subscription;
import io.kraft.broker.group.consumer.ConsumerGroupRecord;
import io.kraft.broker.group.consumer.MemberState;
import io.kraft.broker.group.consumer.MigrationPolicy;
import io.kraft.broker.group.consumer.SubscribedTopics;
import io.kraft.broker.group.consumer.TopicCatalog;
import io.kraft.broker.group.consumer.TopicInfo;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.UUID;

/**
 * KIP-848's upgrade of a classic group with members to the consumer protocol, as pure functions: whether the group may
 * be converted now, and the consumer-group state (with the records that store it) its classic members become. Each
 * member keeps its session timeout and offered protocols (it still speaks JoinGroup) and, at the group's generation as
 * its epoch, the partitions of its last SyncGroup assignment as both what it
 * owns and its target, so the joining consumer-protocol member then causes an ordinary epoch bump whose moves go
 * through revocation, and no partition is owned twice.
 */
final class ClassicGroupUpgrade {
    private ClassicGroupUpgrade() {
    }

    /** Why the group cannot be converted now, or null when it can. */
    static String refusal(MigrationPolicy policy, ClassicGroup group) {
        if (!policy.allowsUpgrade()) {
            return "group.consumer.migration.policy is " + policy;
        }
        if (!ConsumerProtocol.PROTOCOL_TYPE.equals(group.protocolType())) {
            return "its protocol type is " + group.protocolType() + ", not consumer";
        }
        if (!group.is(GroupState.STABLE) || group.pendingCount() > 0) {
            return "it is rebalancing (" + group.state() + ")";
        }
        for (GroupMember member : group.members()) {
            if (ConsumerProtocol.subscribedTopics(member.metadata(group.protocolName())).isEmpty()) {
                return "member " + member.memberId() + " sent no readable consumer subscription";
            }
            if (ConsumerProtocol.assignedPartitions(member.assignment()).isEmpty()) {
                return "member " + member.memberId() + " holds no readable consumer assignment";
            }
        }
        return null;
    }

    /**
     * The consumer group the classic members become; {@code records} receives what stores it. Call only when
     * {@link #refusal} is null. Partitions of topics the catalog no longer knows are dropped.
     */
    static ConsumerGroup convert(ClassicGroup classic, TopicCatalog topics, List<ConsumerGroupRecord> records) {
        String groupId = classic.groupId();
        int epoch = classic.generationId();
        ConsumerGroup group = new ConsumerGroup(groupId);
        group.groupEpoch(epoch);
        group.assignmentEpoch(epoch);
        records.add(new ConsumerGroupRecord.GroupEpoch(groupId, epoch));
        for (GroupMember classicMember : classic.members()) {
            Set<String> names = ConsumerProtocol.subscribedTopics(classicMember.metadata(classic.protocolName()))
                    .orElseThrow();
            ClassicMetadata classicMetadata = new ClassicMetadata(classicMember.sessionTimeoutMs(),
                    classicMember.protocols().stream()
                            .map(p -> new ClassicProtocol(p.name(), p.metadata())).toList());
            Subscription subscription = new Subscription(classicMember.groupInstanceId(), null,
                    classicMember.clientId(), classicMember.clientHost(), names.stream().sorted().toList(), null,
                    null, classicMember.rebalanceTimeoutMs(), classicMetadata);
            Assignment owned = byId(ConsumerProtocol.assignedPartitions(classicMember.assignment()).orElseThrow(),
                    topics);
            ConsumerGroupMember member = new ConsumerGroupMember(classicMember.memberId(), subscription);
            member.current(new CurrentAssignment(epoch, epoch, MemberState.STABLE, owned, Assignment.EMPTY));
            group.put(member);
            group.target(member.memberId(), owned);
            records.add(new ConsumerGroupRecord.MemberMetadata(groupId, member.memberId(), subscription));
            records.add(new ConsumerGroupRecord.TargetMember(groupId, member.memberId(), owned));
            records.add(new ConsumerGroupRecord.CurrentMember(groupId, member.memberId(), member.current()));
        }
        records.add(new ConsumerGroupRecord.TargetAssignmentEpoch(groupId, epoch));
        group.subscribedTopics(SubscribedTopics.of(group, topics));
        return group;
    }

    /** Partitions by topic id; topics the catalog does not know are dropped. */
    static Assignment byId(Map<String, SortedSet<Integer>> byName, TopicCatalog topics) {
        Map<UUID, SortedSet<Integer>> byId = new TreeMap<>();
        byName.forEach((name, ids) -> Optional.ofNullable(topics.byName(name)).map(TopicInfo::id)
                .ifPresent(id -> byId.put(id, ids)));
        return new Assignment(byId);
    }
}
