package io.kraft.broker.group.consumer;

import java.util.Arrays;
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

    /**
     * What a member told the coordinator about itself in its heartbeats, or in its JoinGroup for a classic member of a
     * converted group ({@code classic} non-null only then).
     */
    public record Subscription(String instanceId, String rackId, String clientId, String clientHost,
                               List<String> topicNames, String topicRegex, String serverAssignor,
                               int rebalanceTimeoutMs, ClassicMetadata classic) {
        public Subscription {
            topicNames = topicNames == null ? List.of() : List.copyOf(topicNames);
        }
    }

    /**
     * What KIP-848 keeps of a member that uses the classic protocol inside a consumer group: its session timeout and
     * the protocols (assignor names and their consumer-protocol subscriptions) it offered in JoinGroup.
     */
    public record ClassicMetadata(int sessionTimeoutMs, List<ClassicProtocol> protocols) {
        public ClassicMetadata {
            protocols = List.copyOf(protocols);
        }
    }

    /** One protocol a classic member offered; compared by its bytes. */
    public record ClassicProtocol(String name, byte[] metadata) {
        public ClassicProtocol {
            Objects.requireNonNull(name, "name");
            metadata = metadata.clone();
        }

        @Override
        public byte[] metadata() {
            return metadata.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ClassicProtocol other && name.equals(other.name)
                    && Arrays.equals(metadata, other.metadata);
        }

        @Override
        public int hashCode() {
            return 31 * name.hashCode() + Arrays.hashCode(metadata);
        }

        @Override
        public String toString() {
            return name + "(" + metadata.length + " bytes)";
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

    /** Whether the member joined with JoinGroup (a classic member of a converted group). */
    public boolean isClassic() {
        return subscription.classic() != null;
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
