package io.kraft.broker.group.consumer;

import java.util.List;
import java.util.Objects;

/**
 * One member of a consumer-protocol group (KIP-848): who it is and what it subscribes to, and its reconciliation
 * state: its epoch, the partitions it owns and those it must still revoke.
 */
public final class ConsumerGroupMember {
    private final String memberId;
    private Subscription subscription;
    private int memberEpoch;
    private int previousMemberEpoch;
    private MemberState state = MemberState.STABLE;
    private Assignment assigned = Assignment.EMPTY;
    private Assignment pendingRevocation = Assignment.EMPTY;

    /** What a member told the coordinator about itself in its heartbeats. */
    public record Subscription(String instanceId, String rackId, String clientId, String clientHost,
                               List<String> topicNames, String topicRegex, String serverAssignor,
                               int rebalanceTimeoutMs) {
        public Subscription {
            topicNames = topicNames == null ? List.of() : List.copyOf(topicNames);
        }
    }

    /** The stored reconciliation state of a member. */
    public record CurrentAssignment(int memberEpoch, int previousMemberEpoch, MemberState state,
                                    Assignment assigned, Assignment pendingRevocation) {
    }

    public ConsumerGroupMember(String memberId, Subscription subscription) {
        this.memberId = Objects.requireNonNull(memberId, "memberId");
        this.subscription = Objects.requireNonNull(subscription, "subscription");
    }

    public String memberId() {
        return memberId;
    }

    public Subscription subscription() {
        return subscription;
    }

    public void subscription(Subscription updated) {
        this.subscription = Objects.requireNonNull(updated, "subscription");
    }

    public int memberEpoch() {
        return memberEpoch;
    }

    public int previousMemberEpoch() {
        return previousMemberEpoch;
    }

    public MemberState state() {
        return state;
    }

    public Assignment assigned() {
        return assigned;
    }

    public Assignment pendingRevocation() {
        return pendingRevocation;
    }

    public CurrentAssignment current() {
        return new CurrentAssignment(memberEpoch, previousMemberEpoch, state, assigned, pendingRevocation);
    }

    public void current(CurrentAssignment value) {
        this.memberEpoch = value.memberEpoch();
        this.previousMemberEpoch = value.previousMemberEpoch();
        this.state = value.state();
        this.assigned = value.assigned();
        this.pendingRevocation = value.pendingRevocation();
    }

    @Override
    public String toString() {
        return memberId + "@" + memberEpoch + "/" + state.label();
    }
}
