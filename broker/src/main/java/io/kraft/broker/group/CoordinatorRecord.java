package io.kraft.broker.group;

import io.kraft.broker.group.consumer.ConsumerGroupRecord;
import java.util.List;
import java.util.Objects;

/**
 * A record of {@code __consumer_offsets}: the coordinator's only durable state. Replaying them in offset order
 * rebuilds every group and committed offset of a partition; a null value is a tombstone.
 */
public sealed interface CoordinatorRecord {

    /** The group the record belongs to (it decides the partition). */
    String groupId();

    /** Whether this record deletes its key. */
    boolean isTombstone();

    /** One of a consumer-protocol group's records (KIP-848). */
    record ConsumerGroupPart(ConsumerGroupRecord record) implements CoordinatorRecord {
        public ConsumerGroupPart {
            Objects.requireNonNull(record, "record");
        }

        @Override
        public String groupId() {
            return record.groupId();
        }

        @Override
        public boolean isTombstone() {
            return record.isTombstone();
        }
    }

    /** A committed offset, or its deletion when {@code value} is null. */
    record OffsetCommit(String groupId, OffsetKey partition, OffsetAndMetadata value) implements CoordinatorRecord {
        public OffsetCommit {
            Objects.requireNonNull(groupId, "groupId");
            Objects.requireNonNull(partition, "partition");
        }

        @Override
        public boolean isTombstone() {
            return value == null;
        }
    }

    /** A group's membership and generation as of its last completed rebalance, or its deletion when null. */
    record GroupMetadata(String groupId, GroupMetadataValue value) implements CoordinatorRecord {
        public GroupMetadata {
            Objects.requireNonNull(groupId, "groupId");
        }

        @Override
        public boolean isTombstone() {
            return value == null;
        }
    }

    /**
     * The stored form of a group.
     *
     * @param protocolType  e.g. "consumer"; null for a group that only ever had simple (generation -1) commits
     * @param protocol      the selected protocol (assignor), null when the group is empty
     * @param leader        the leader's member id, null when the group is empty
     */
    record GroupMetadataValue(String protocolType, int generation, String protocol, String leader,
                              long currentStateTimestampMs, List<StoredMember> members) {
        public GroupMetadataValue {
            members = List.copyOf(members);
        }
    }

    /** One member as stored with its group: identity, timeouts, and its subscription and assignment bytes. */
    record StoredMember(String memberId, String groupInstanceId, String clientId, String clientHost,
                        int rebalanceTimeoutMs, int sessionTimeoutMs, byte[] subscription, byte[] assignment) {
        public StoredMember {
            Objects.requireNonNull(memberId, "memberId");
            Objects.requireNonNull(subscription, "subscription");
            Objects.requireNonNull(assignment, "assignment");
        }
    }
}
