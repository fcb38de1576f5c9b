package io.kraft.broker.group;

import io.kraft.broker.group.consumer.ConsumerGroupRecord;
import io.kraft.broker.group.share.SharePartition;
import io.kraft.broker.group.share.SharePartitionKey;
import java.util.List;
import java.util.Objects;

/**
 * A record of a coordinator's internal topic: {@code __consumer_offsets} (groups and committed offsets) or
 * {@code __share_group_state} (share-partition snapshots, KIP-932). Replaying a partition's records in offset order
 * rebuilds its state; a null value is a tombstone.
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

    /**
     * The whole delivery state of one share partition (KIP-932), in {@code __share_group_state}, or its deletion
     * when {@code snapshot} is null. Every write is a full snapshot, so the last one per key is the state.
     */
    record ShareSnapshot(SharePartitionKey key, SharePartition.Snapshot snapshot) implements CoordinatorRecord {
        public ShareSnapshot {
            Objects.requireNonNull(key, "key");
        }

        @Override
        public String groupId() {
            return key.groupId();
        }

        @Override
        public boolean isTombstone() {
            return snapshot == null;
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
