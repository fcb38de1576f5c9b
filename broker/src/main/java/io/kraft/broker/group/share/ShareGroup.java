package io.kraft.broker.group.share;

import io.kraft.broker.group.consumer.TopicCatalog;
import io.kraft.broker.group.consumer.TopicInfo;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The membership of one share group (KIP-932): members, their subscriptions, epochs and assignments. Every member
 * is assigned every partition of the topics it subscribes to (KIP-932's simple assignor lets members share
 * partitions; with one partition and several members they must), so there is nothing to revoke and a member
 * takes its new assignment at once. A plain object; the coordinator serialises calls and keeps the timers.
 */
public final class ShareGroup {
    /** The assignor name ShareGroupDescribe reports. */
    public static final String ASSIGNOR_NAME = "simple";

    /** One member: who it is, what it subscribes to, and the partitions it was last given. */
    public record Member(String memberId, int memberEpoch, String rackId, String clientId, String clientHost,
                         List<String> subscribedTopicNames, Map<UUID, SortedSet<Integer>> assignment) {
        public Member {
            subscribedTopicNames = List.copyOf(subscribedTopicNames);
            assignment = Collections.unmodifiableMap(new TreeMap<>(assignment));
        }
    }

    /** A heartbeat as the coordinator sees it. */
    public record Heartbeat(String groupId, String memberId, int memberEpoch, String rackId,
                            List<String> subscribedTopicNames, String clientId, String clientHost) {
    }

    /**
     * The answer to a heartbeat: an error, or the member's id and epoch and, when it changed, its assignment
     * (null means unchanged).
     */
    public record Result(short errorCode, String errorMessage, String memberId, int memberEpoch,
                         Map<UUID, SortedSet<Integer>> assignment) {
        static Result error(Errors error, String message) {
            return new Result(error.code(), message, null, 0, null);
        }
    }

    /** The member epoch a heartbeat sends to leave the group. */
    public static final int LEAVE_EPOCH = -1;

    private final String groupId;
    private final Map<String, Member> members = new LinkedHashMap<>();
    private int groupEpoch;

    public ShareGroup(String groupId) {
        this.groupId = groupId;
    }

    public String groupId() {
        return groupId;
    }

    public int groupEpoch() {
        return groupEpoch;
    }

    public Collection<Member> members() {
        return Collections.unmodifiableCollection(members.values());
    }

    public boolean isEmpty() {
        return members.isEmpty();
    }

    /** KIP-932's group states as ShareGroupDescribe and ListGroups name them. */
    public String state() {
        return members.isEmpty() ? "Empty" : "Stable";
    }

    /** Applies one heartbeat; {@code newMemberId} names a joining member that sent no id. */
    public Result heartbeat(Heartbeat hb, TopicCatalog topics, int maxSize, String newMemberId) {
        if (hb.memberEpoch() == LEAVE_EPOCH) {
            Member gone = members.remove(hb.memberId());
            if (gone == null) {
                return Result.error(Errors.UNKNOWN_MEMBER_ID, "member " + hb.memberId() + " is not in the group");
            }
            groupEpoch++;
            return new Result(Errors.NONE.code(), null, hb.memberId(), LEAVE_EPOCH, null);
        }
        Member member = members.get(hb.memberId());
        List<String> subscription;
        if (hb.memberEpoch() == 0) {
            if (hb.subscribedTopicNames() == null || hb.subscribedTopicNames().isEmpty()) {
                return Result.error(Errors.INVALID_REQUEST, "a joining member must subscribe to topics");
            }
            if (member == null && members.size() >= maxSize) {
                return Result.error(Errors.GROUP_MAX_SIZE_REACHED, "share group " + groupId + " has " + maxSize
                        + " members");
            }
            subscription = hb.subscribedTopicNames();
            member = null; // a member rejoining at epoch 0 starts again
        } else {
            if (member == null) {
                return Result.error(Errors.UNKNOWN_MEMBER_ID, "member " + hb.memberId() + " is not in the group");
            }
            if (hb.memberEpoch() != member.memberEpoch()) {
                return Result.error(Errors.FENCED_MEMBER_EPOCH, "member epoch " + hb.memberEpoch() + " is not "
                        + member.memberEpoch());
            }
            subscription = hb.subscribedTopicNames() == null ? member.subscribedTopicNames()
                    : hb.subscribedTopicNames();
        }
        String memberId = hb.memberId() == null || hb.memberId().isEmpty() ? newMemberId : hb.memberId();
        Map<UUID, SortedSet<Integer>> target = assign(subscription, topics);
        boolean changed = member == null || !member.subscribedTopicNames().equals(subscription)
                || !member.assignment().equals(target);
        if (!changed) {
            return new Result(Errors.NONE.code(), null, memberId, member.memberEpoch(), null);
        }
        groupEpoch++;
        members.put(memberId, new Member(memberId, groupEpoch, hb.rackId(), hb.clientId(), hb.clientHost(),
                subscription, target));
        return new Result(Errors.NONE.code(), null, memberId, groupEpoch, target);
    }

    /** Removes a member whose session expired; whether it was there. */
    public boolean remove(String memberId) {
        if (members.remove(memberId) == null) {
            return false;
        }
        groupEpoch++;
        return true;
    }

    /** Every partition of every subscribed topic that exists. */
    static Map<UUID, SortedSet<Integer>> assign(List<String> subscription, TopicCatalog topics) {
        Map<UUID, SortedSet<Integer>> out = new TreeMap<>();
        for (String name : subscription) {
            TopicInfo topic = topics.byName(name);
            if (topic == null || topic.partitionCount() == 0) {
                continue;
            }
            SortedSet<Integer> partitions = new TreeSet<>();
            for (int p = 0; p < topic.partitionCount(); p++) {
                partitions.add(p);
            }
            out.put(topic.id(), partitions);
        }
        return out;
    }

    /** The member ids, for tests and logs. */
    public List<String> memberIds() {
        return new ArrayList<>(members.keySet());
    }
}
