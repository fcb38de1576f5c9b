package io.kraft.broker.group;

import io.kraft.broker.group.CoordinatorRecord.ConsumerGroupPart;
import io.kraft.broker.group.CoordinatorRecord.GroupMetadata;
import io.kraft.broker.group.CoordinatorRecord.OffsetCommit;
import io.kraft.broker.group.CoordinatorRecord.ShareSnapshot;
import io.kraft.broker.group.CoordinatorRecord.StoredMember;
import io.kraft.broker.group.consumer.ConsumerGroupRecordCodec;
import io.kraft.broker.group.share.RecordState;
import io.kraft.broker.group.share.SharePartition;
import io.kraft.broker.group.share.SharePartitionKey;
import io.kraft.broker.protocol.message.GroupMetadataKey;
import io.kraft.broker.protocol.message.GroupMetadataValue;
import io.kraft.broker.protocol.message.GroupMetadataValue.MemberMetadata;
import io.kraft.broker.protocol.message.OffsetCommitKey;
import io.kraft.broker.protocol.message.OffsetCommitValue;
import io.kraft.broker.protocol.message.ShareSnapshotKey;
import io.kraft.broker.protocol.message.ShareSnapshotValue;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Key and value bytes of {@code __consumer_offsets} records, with the layouts generated from the data specs
 * {@code OffsetCommitKey}, {@code GroupMetadataKey}, {@code OffsetCommitValue} and {@code GroupMetadataValue}
 * ({@code broker/src/main/messages}). Keys and values start with an int16 version: keys v0-1 are offset commits
 * (group, topic, partition), key v2 is a group's metadata (group). Offset values v0-3 and group values v0-3 follow
 * Kafka's documented layouts, so the versions written today (v3 each, v1 for an offset with an explicit expiry)
 * stay readable as they evolve. Key versions 3 and 5-8 are a consumer-protocol group's (KIP-848), read and written by
 * {@link ConsumerGroupRecordCodec}. Key version 100 is a share partition's snapshot in {@code __share_group_state}
 * ({@code ShareSnapshotKey}/{@code ShareSnapshotValue}, our own layout: Kafka numbers its share-state keys 0 and 1,
 * which this one codec already reads as offset commits).
 */
public final class CoordinatorRecordCodec {
    static final short OFFSET_COMMIT_KEY_VERSION = 1;
    static final short GROUP_METADATA_KEY_VERSION = 2;
    static final short OFFSET_VALUE_VERSION = 3;
    static final short OFFSET_VALUE_VERSION_WITH_EXPIRY = 1;
    static final short GROUP_VALUE_VERSION = 3;
    static final short SHARE_SNAPSHOT_KEY_VERSION = ShareSnapshotKey.HIGHEST_SUPPORTED_VERSION;
    static final short SHARE_SNAPSHOT_VALUE_VERSION = 0;

    private CoordinatorRecordCodec() {
    }

    /** The record's key bytes. */
    public static ByteBuffer encodeKey(CoordinatorRecord record) {
        if (record instanceof ConsumerGroupPart part) {
            return ConsumerGroupRecordCodec.encodeKey(part.record());
        }
        if (record instanceof ShareSnapshot share) {
            return new ShareSnapshotKey().setGroupId(share.key().groupId()).setTopicId(share.key().topicId())
                    .setPartition(share.key().partition()).toVersionedBuffer(SHARE_SNAPSHOT_KEY_VERSION);
        }
        if (record instanceof OffsetCommit commit) {
            OffsetCommitKey key = new OffsetCommitKey()
                    .setGroup(commit.groupId())
                    .setTopic(commit.partition().topic())
                    .setPartition(commit.partition().partition());
            return key.toVersionedBuffer(OFFSET_COMMIT_KEY_VERSION);
        }
        return new GroupMetadataKey().setGroup(record.groupId()).toVersionedBuffer(GROUP_METADATA_KEY_VERSION);
    }

    /** The record's value bytes, or null for a tombstone. */
    public static ByteBuffer encodeValue(CoordinatorRecord record) {
        if (record.isTombstone()) {
            return null;
        }
        if (record instanceof ConsumerGroupPart part) {
            return ConsumerGroupRecordCodec.encodeValue(part.record());
        }
        if (record instanceof ShareSnapshot share) {
            ShareSnapshotValue value = new ShareSnapshotValue().setStartOffset(share.snapshot().startOffset());
            for (SharePartition.StateRange range : share.snapshot().ranges()) {
                value.stateBatches().add(new ShareSnapshotValue.StateBatch().setFirstOffset(range.firstOffset())
                        .setLastOffset(range.lastOffset()).setDeliveryState(range.state().code)
                        .setDeliveryCount((short) range.deliveryCount()));
            }
            return value.toVersionedBuffer(SHARE_SNAPSHOT_VALUE_VERSION);
        }
        if (record instanceof OffsetCommit commit) {
            OffsetAndMetadata offset = commit.value();
            OffsetCommitValue value = new OffsetCommitValue()
                    .setOffset(offset.offset())
                    .setLeaderEpoch(offset.leaderEpoch())
                    .setMetadata(offset.metadata())
                    .setCommitTimestampMs(offset.commitTimestampMs());
            if (offset.expireTimestampMs().isPresent()) {
                // only v1 has the explicit expiry (OffsetCommit v2-4's retention time)
                value.setExpireTimestampMs(offset.expireTimestampMs().getAsLong());
                return value.toVersionedBuffer(OFFSET_VALUE_VERSION_WITH_EXPIRY);
            }
            return value.toVersionedBuffer(OFFSET_VALUE_VERSION);
        }
        CoordinatorRecord.GroupMetadataValue group = ((GroupMetadata) record).value();
        GroupMetadataValue value = new GroupMetadataValue()
                .setProtocolType(group.protocolType() == null ? "" : group.protocolType())
                .setGeneration(group.generation())
                .setProtocol(group.protocol())
                .setLeader(group.leader())
                .setCurrentStateTimestampMs(group.currentStateTimestampMs());
        for (StoredMember member : group.members()) {
            value.members().add(new MemberMetadata()
                    .setMemberId(member.memberId())
                    .setGroupInstanceId(member.groupInstanceId())
                    .setClientId(member.clientId())
                    .setClientHost(member.clientHost())
                    .setRebalanceTimeoutMs(member.rebalanceTimeoutMs())
                    .setSessionTimeoutMs(member.sessionTimeoutMs())
                    .setSubscription(ByteBuffer.wrap(member.subscription()))
                    .setAssignment(ByteBuffer.wrap(member.assignment())));
        }
        return value.toVersionedBuffer(GROUP_VALUE_VERSION);
    }

    /**
     * Reads one record.
     *
     * @param value null for a tombstone
     * @throws CorruptCoordinatorRecordException when the key or value cannot be read
     */
    public static CoordinatorRecord decode(ByteBuffer key, ByteBuffer value) {
        if (key == null) {
            throw new CorruptCoordinatorRecordException("__consumer_offsets record without a key");
        }
        ByteBuffer keyBytes = key.duplicate();
        try {
            short keyVersion = keyBytes.getShort();
            if (keyVersion >= OffsetCommitKey.LOWEST_SUPPORTED_VERSION
                    && keyVersion <= OffsetCommitKey.HIGHEST_SUPPORTED_VERSION) {
                OffsetCommitKey k = OffsetCommitKey.parse(keyBytes, keyVersion);
                OffsetKey partition = new OffsetKey(k.topic(), k.partition());
                return new OffsetCommit(k.group(), partition, value == null ? null : decodeOffset(value));
            }
            if (keyVersion == GROUP_METADATA_KEY_VERSION) {
                GroupMetadataKey k = GroupMetadataKey.parse(keyBytes, keyVersion);
                return new GroupMetadata(k.group(), value == null ? null : decodeGroup(value));
            }
            if (keyVersion == SHARE_SNAPSHOT_KEY_VERSION) {
                ShareSnapshotKey k = ShareSnapshotKey.parse(keyBytes, keyVersion);
                return new ShareSnapshot(new SharePartitionKey(k.groupId(), k.topicId(), k.partition()),
                        value == null ? null : decodeShareSnapshot(value));
            }
            if (ConsumerGroupRecordCodec.isConsumerKey(keyVersion)) {
                return new ConsumerGroupPart(ConsumerGroupRecordCodec.decode(keyVersion, keyBytes, value));
            }
            throw new CorruptCoordinatorRecordException("unknown __consumer_offsets key version " + keyVersion);
        } catch (CorruptCoordinatorRecordException e) {
            throw e;
        } catch (RuntimeException e) {
            // Bytes from disk or a leader: whatever a reader throws for them (a truncated buffer, a length past
            // the end, a null where none may be) means this is not a record we can read.
            throw new CorruptCoordinatorRecordException("unreadable __consumer_offsets record: " + e.getMessage());
        }
    }

    private static OffsetAndMetadata decodeOffset(ByteBuffer bytes) {
        ByteBuffer in = bytes.duplicate();
        short version = in.getShort();
        requireVersion("OffsetCommitValue", version, OffsetCommitValue.LOWEST_SUPPORTED_VERSION,
                OffsetCommitValue.HIGHEST_SUPPORTED_VERSION);
        OffsetCommitValue v = OffsetCommitValue.parse(in, version);
        long expire = v.expireTimestampMs();
        return new OffsetAndMetadata(v.offset(), v.leaderEpoch(), v.metadata(), v.commitTimestampMs(),
                expire >= 0 ? OptionalLong.of(expire) : OptionalLong.empty());
    }

    private static CoordinatorRecord.GroupMetadataValue decodeGroup(ByteBuffer bytes) {
        ByteBuffer in = bytes.duplicate();
        short version = in.getShort();
        requireVersion("GroupMetadataValue", version, GroupMetadataValue.LOWEST_SUPPORTED_VERSION,
                GroupMetadataValue.HIGHEST_SUPPORTED_VERSION);
        GroupMetadataValue v = GroupMetadataValue.parse(in, version);
        List<StoredMember> members = new ArrayList<>(v.members().size());
        for (MemberMetadata m : v.members()) {
            int sessionTimeoutMs = m.sessionTimeoutMs();
            // v0 has no rebalance timeout: the session timeout stood for both
            int rebalanceTimeoutMs = m.rebalanceTimeoutMs();
            members.add(new StoredMember(m.memberId(), m.groupInstanceId(), m.clientId(), m.clientHost(),
                    rebalanceTimeoutMs < 0 ? sessionTimeoutMs : rebalanceTimeoutMs, sessionTimeoutMs,
                    toArray(m.subscription()), toArray(m.assignment())));
        }
        String protocolType = v.protocolType();
        return new CoordinatorRecord.GroupMetadataValue(protocolType.isEmpty() ? null : protocolType,
                v.generation(), v.protocol(), v.leader(), v.currentStateTimestampMs(), members);
    }

    private static SharePartition.Snapshot decodeShareSnapshot(ByteBuffer bytes) {
        ByteBuffer in = bytes.duplicate();
        short version = in.getShort();
        requireVersion("ShareSnapshotValue", version, ShareSnapshotValue.LOWEST_SUPPORTED_VERSION,
                ShareSnapshotValue.HIGHEST_SUPPORTED_VERSION);
        ShareSnapshotValue v = ShareSnapshotValue.parse(in, version);
        List<SharePartition.StateRange> ranges = new ArrayList<>(v.stateBatches().size());
        for (ShareSnapshotValue.StateBatch b : v.stateBatches()) {
            ranges.add(new SharePartition.StateRange(b.firstOffset(), b.lastOffset(),
                    RecordState.ofCode(b.deliveryState()), b.deliveryCount()));
        }
        return new SharePartition.Snapshot(v.startOffset(), ranges);
    }

    private static void requireVersion(String layout, short version, short lowest, short highest) {
        if (version < lowest || version > highest) {
            throw new CorruptCoordinatorRecordException("unknown " + layout + " version " + version);
        }
    }

    static byte[] toArray(ByteBuffer buffer) {
        if (buffer == null) {
            return new byte[0];
        }
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
