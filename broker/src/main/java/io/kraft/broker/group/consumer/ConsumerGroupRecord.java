package io.kraft.broker.group.consumer;

import io.kraft.broker.group.consumer.ConsumerGroupMember.CurrentAssignment;
import io.kraft.broker.group.consumer.ConsumerGroupMember.Subscription;

/**
 * The records a consumer-protocol group is stored as in {@code __consumer_offsets} (KIP-848): the group's epoch, each
 * member's subscription, the target assignment's epoch and per-member target, and each member's reconciliation state.
 * A null value is a tombstone. Replaying them in log order rebuilds the group after a coordinator failover.
 */
public sealed interface ConsumerGroupRecord {
    String groupId();

    boolean isTombstone();

    /** Key version 3: the group epoch; a tombstone deletes the group. */
    record GroupEpoch(String groupId, Integer epoch) implements ConsumerGroupRecord {
        @Override
        public boolean isTombstone() {
            return epoch == null;
        }
    }

    /** Key version 5: a member's identity and subscription. */
    record MemberMetadata(String groupId, String memberId, Subscription value) implements ConsumerGroupRecord {
        @Override
        public boolean isTombstone() {
            return value == null;
        }
    }

    /** Key version 6: the epoch the target assignment was computed at. */
    record TargetAssignmentEpoch(String groupId, Integer epoch) implements ConsumerGroupRecord {
        @Override
        public boolean isTombstone() {
            return epoch == null;
        }
    }

    /** Key version 7: a member's target assignment. */
    record TargetMember(String groupId, String memberId, Assignment value) implements ConsumerGroupRecord {
        @Override
        public boolean isTombstone() {
            return value == null;
        }
    }

    /** Key version 8: a member's epochs, state, assigned and revoking partitions. */
    record CurrentMember(String groupId, String memberId, CurrentAssignment value) implements ConsumerGroupRecord {
        @Override
        public boolean isTombstone() {
            return value == null;
        }
    }
}
