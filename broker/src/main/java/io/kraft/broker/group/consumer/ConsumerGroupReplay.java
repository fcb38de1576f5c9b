package io.kraft.broker.group.consumer;

import io.kraft.broker.group.consumer.ConsumerGroupMember.CurrentAssignment;
import io.kraft.broker.group.consumer.ConsumerGroupMember.Subscription;
import io.kraft.broker.group.consumer.ConsumerGroupRecord.CurrentMember;
import io.kraft.broker.group.consumer.ConsumerGroupRecord.GroupEpoch;
import io.kraft.broker.group.consumer.ConsumerGroupRecord.MemberMetadata;
import io.kraft.broker.group.consumer.ConsumerGroupRecord.TargetAssignmentEpoch;
import io.kraft.broker.group.consumer.ConsumerGroupRecord.TargetMember;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** Replays consumer group records in log order into the groups they describe (the last value of each key wins). */
public final class ConsumerGroupReplay {
    private static final class Stored {
        Integer groupEpoch;
        int assignmentEpoch;
        final Map<String, Subscription> subscriptions = new LinkedHashMap<>();
        final Map<String, CurrentAssignment> currents = new HashMap<>();
        final Map<String, Assignment> targets = new HashMap<>();
    }

    private final Map<String, Stored> groups = new LinkedHashMap<>();

    public void replay(ConsumerGroupRecord record) {
        if (record instanceof GroupEpoch r && r.isTombstone()) {
            groups.remove(r.groupId());
            return;
        }
        Stored stored = groups.computeIfAbsent(record.groupId(), id -> new Stored());
        if (record instanceof GroupEpoch r) {
            stored.groupEpoch = r.epoch();
        } else if (record instanceof TargetAssignmentEpoch r) {
            stored.assignmentEpoch = r.isTombstone() ? 0 : r.epoch();
        } else if (record instanceof MemberMetadata r) {
            put(stored.subscriptions, r.memberId(), r.value());
        } else if (record instanceof TargetMember r) {
            put(stored.targets, r.memberId(), r.value());
        } else if (record instanceof CurrentMember r) {
            put(stored.currents, r.memberId(), r.value());
        }
    }

    private static <V> void put(Map<String, V> map, String memberId, V value) {
        if (value == null) {
            map.remove(memberId);
        } else {
            map.put(memberId, value);
        }
    }

    /** The groups whose epoch record is live, rebuilt. */
    public Map<String, ConsumerGroup> groups() {
        Map<String, ConsumerGroup> out = new LinkedHashMap<>();
        groups.forEach((groupId, stored) -> {
            if (stored.groupEpoch == null) {
                return;
            }
            ConsumerGroup group = new ConsumerGroup(groupId);
            group.groupEpoch(stored.groupEpoch);
            group.assignmentEpoch(stored.assignmentEpoch);
            stored.subscriptions.forEach((memberId, subscription) -> {
                ConsumerGroupMember member = new ConsumerGroupMember(memberId, subscription);
                CurrentAssignment current = stored.currents.get(memberId);
                if (current != null) {
                    member.current(current);
                }
                group.put(member);
                Assignment target = stored.targets.get(memberId);
                if (target != null) {
                    group.target(memberId, target);
                }
            });
            out.put(groupId, group);
        });
        return out;
    }
}
