package io.kraft.broker.group.consumer;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The consumer-protocol state of a group (KIP-848): its epoch (bumped whenever members or subscribed topics change),
 * its members, and the target assignment computed at the assignment epoch. Members then reconcile toward their
 * target one heartbeat at a time.
 */
public final class ConsumerGroup {
    private final String groupId;
    private int groupEpoch;
    private int assignmentEpoch;
    private final Map<String, ConsumerGroupMember> members = new TreeMap<>();
    private final Map<String, Assignment> target = new HashMap<>();
    /** The subscribed topics (id -> info) as of the last group epoch, to notice topics created, grown or deleted. */
    private Map<UUID, TopicInfo> subscribedTopics = Map.of();

    public ConsumerGroup(String groupId) {
        this.groupId = Objects.requireNonNull(groupId, "groupId");
    }

    public String groupId() {
        return groupId;
    }

    public int groupEpoch() {
        return groupEpoch;
    }

    public void groupEpoch(int epoch) {
        this.groupEpoch = epoch;
    }

    public int assignmentEpoch() {
        return assignmentEpoch;
    }

    public void assignmentEpoch(int epoch) {
        this.assignmentEpoch = epoch;
    }

    public ConsumerGroupMember member(String memberId) {
        return members.get(memberId);
    }

    public Collection<ConsumerGroupMember> members() {
        return members.values();
    }

    public boolean isEmpty() {
        return members.isEmpty();
    }

    public void put(ConsumerGroupMember member) {
        members.put(member.memberId(), member);
    }

    public ConsumerGroupMember remove(String memberId) {
        target.remove(memberId);
        return members.remove(memberId);
    }

    /** The member holding {@code instanceId} (static membership), or null. */
    public ConsumerGroupMember staticMember(String instanceId) {
        if (instanceId == null) {
            return null;
        }
        for (ConsumerGroupMember member : members.values()) {
            if (instanceId.equals(member.subscription().instanceId())) {
                return member;
            }
        }
        return null;
    }

    public Assignment target(String memberId) {
        return target.getOrDefault(memberId, Assignment.EMPTY);
    }

    public Map<String, Assignment> targets() {
        return target;
    }

    public void target(String memberId, Assignment assignment) {
        target.put(memberId, assignment);
    }

    public Map<UUID, TopicInfo> subscribedTopics() {
        return subscribedTopics;
    }

    public void subscribedTopics(Map<UUID, TopicInfo> topics) {
        this.subscribedTopics = Map.copyOf(topics);
    }

    /** Whether another member than {@code memberId} owns or is still revoking the partition. */
    public boolean ownedByOther(String memberId, UUID topic, int partition) {
        for (ConsumerGroupMember member : members.values()) {
            if (!member.memberId().equals(memberId) && (member.assigned().contains(topic, partition)
                    || member.pendingRevocation().contains(topic, partition))) {
                return true;
            }
        }
        return false;
    }

    /** The wire state: Empty, Assigning (target behind the group epoch), Reconciling, or Stable. */
    public String stateName() {
        if (members.isEmpty()) {
            return "Empty";
        }
        if (assignmentEpoch < groupEpoch) {
            return "Assigning";
        }
        for (ConsumerGroupMember member : members.values()) {
            if (member.memberEpoch() != assignmentEpoch || member.state() != MemberState.STABLE) {
                return "Reconciling";
            }
        }
        return "Stable";
    }
}
