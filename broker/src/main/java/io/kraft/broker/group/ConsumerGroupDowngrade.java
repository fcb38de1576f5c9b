package io.kraft.broker.group;

import io.kraft.broker.group.CoordinatorRecord.ConsumerGroupPart;
import io.kraft.broker.group.GroupApi.Protocol;
import io.kraft.broker.group.consumer.Assignment;
import io.kraft.broker.group.consumer.ConsumerGroup;
import io.kraft.broker.group.consumer.ConsumerGroupMember;
import io.kraft.broker.group.consumer.ConsumerGroupRecord;
import io.kraft.broker.group.consumer.MigrationPolicy;
import io.kraft.broker.group.consumer.TopicInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * KIP-848's downgrade: a consumer group whose last consumer-protocol member left, with only classic members (that
 * joined with JoinGroup) remaining, becomes a classic group again. Each member keeps its id, protocols, timeouts and,
 * as its classic assignment, the partitions it owns; the generation is the members' latest epoch, and each member's
 * own epoch stays usable until the next generation ({@link DowngradedEpochs}). The caller then
 * starts a rebalance, so the members rejoin and the group's leader assigns as the classic protocol does.
 */
final class ConsumerGroupDowngrade {
    private ConsumerGroupDowngrade() {
    }

    /** Whether the group should go back to the classic protocol now. */
    static boolean due(MigrationPolicy policy, ConsumerGroup group) {
        return policy.allowsDowngrade() && !group.isEmpty()
                && group.members().stream().allMatch(ConsumerGroupMember::isClassic);
    }

    /**
     * Turns {@code holder} back into a classic group (call only when {@link #due}); returns the records that store
     * it: tombstones of every consumer-group record, then the classic group.
     */
    static List<CoordinatorRecord> convert(ClassicGroup holder, long nowMs) {
        ConsumerGroup group = holder.consumerGroup();
        String groupId = group.groupId();
        List<CoordinatorRecord> records = new ArrayList<>();
        Map<String, byte[]> assignments = new HashMap<>();
        List<GroupMember> members = new ArrayList<>();
        Map<String, DowngradedEpochs.Member> epochs = new HashMap<>();
        for (ConsumerGroupMember member : group.members()) {
            records.add(new ConsumerGroupPart(new ConsumerGroupRecord.CurrentMember(groupId, member.memberId(), null)));
            records.add(new ConsumerGroupPart(new ConsumerGroupRecord.TargetMember(groupId, member.memberId(), null)));
            records.add(new ConsumerGroupPart(
                    new ConsumerGroupRecord.MemberMetadata(groupId, member.memberId(), null)));
            ConsumerGroupMember.Subscription subscription = member.subscription();
            GroupMember classic = new GroupMember(member.memberId(), subscription.instanceId(),
                    subscription.clientId(), subscription.clientHost(), subscription.rebalanceTimeoutMs(),
                    subscription.classic().sessionTimeoutMs(), subscription.classic().protocols().stream()
                            .map(p -> new Protocol(p.name(), p.metadata())).toList());
            byte[] assignment = ConsumerProtocol.assignment(byName(member.assigned(), group));
            classic.assignment(assignment);
            assignments.put(member.memberId(), assignment);
            Set<OffsetKey> owned = new HashSet<>();
            byName(member.assigned().union(member.pendingRevocation()), group).forEach((topic, partitions) ->
                    partitions.forEach(p -> owned.add(new OffsetKey(topic, p))));
            epochs.put(member.memberId(), new DowngradedEpochs.Member(member.memberEpoch(), owned));
            members.add(classic);
        }
        records.add(new ConsumerGroupPart(new ConsumerGroupRecord.TargetAssignmentEpoch(groupId, null)));
        records.add(new ConsumerGroupPart(new ConsumerGroupRecord.GroupEpoch(groupId, null)));
        holder.consumerGroup(null);
        holder.protocolType(ConsumerProtocol.PROTOCOL_TYPE);
        // The members' own generation (their latest epoch), so their heartbeats are told to rejoin rather than that
        // their generation is illegal, which would make them drop their partitions as lost; members behind it keep
        // their own epoch until the next generation (DowngradedEpochs).
        holder.generationId(group.members().stream().mapToInt(ConsumerGroupMember::memberEpoch).max()
                .orElse(group.groupEpoch()));
        members.forEach(holder::add);
        holder.downgradedEpochs(new DowngradedEpochs(holder.generationId(), epochs));
        holder.protocolName(holder.selectProtocol());
        holder.restoreState(GroupState.STABLE, nowMs);
        records.add(GroupMembershipManager.groupRecord(holder, assignments));
        return records;
    }

    /** Partitions by topic name; a topic no longer subscribed (deleted) is left out. */
    static Map<String, SortedSet<Integer>> byName(Assignment assignment, ConsumerGroup group) {
        Map<String, SortedSet<Integer>> byName = new TreeMap<>();
        assignment.partitions().forEach((id, partitions) -> {
            TopicInfo topic = group.subscribedTopics().get(id);
            if (topic != null) {
                byName.put(topic.name(), partitions);
            }
        });
        return byName;
    }
}
