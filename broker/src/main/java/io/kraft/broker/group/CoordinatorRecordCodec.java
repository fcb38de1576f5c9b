package io.kraft.broker.group;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BYTES;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.group.CoordinatorRecord.GroupMetadata;
import io.kraft.broker.group.CoordinatorRecord.GroupMetadataValue;
import io.kraft.broker.group.CoordinatorRecord.OffsetCommit;
import io.kraft.broker.group.CoordinatorRecord.StoredMember;
import io.kraft.broker.protocol.schema.MalformedMessageException;
import io.kraft.broker.protocol.schema.MessageReader;
import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.MessageWriter;
import io.kraft.broker.protocol.schema.StructSchema;
import io.kraft.broker.protocol.schema.Struct;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Key and value layouts of {@code __consumer_offsets} records, declared with the wire codec's schema engine.
 * Keys and values start with an int16 version: keys v0-1 are offset commits (group, topic, partition), key v2 is
 * a group's metadata (group). Offset values v0-3 and group values v0-3 follow Kafka's documented layouts, so the
 * versions written today (v3 each, v1 for an offset with an explicit expiry) stay readable as they evolve.
 */
public final class CoordinatorRecordCodec {
    static final short OFFSET_COMMIT_KEY_VERSION = 1;
    static final short GROUP_METADATA_KEY_VERSION = 2;
    static final short OFFSET_VALUE_VERSION = 3;
    static final short OFFSET_VALUE_VERSION_WITH_EXPIRY = 1;
    static final short GROUP_VALUE_VERSION = 3;

    static final MessageSchema OFFSET_COMMIT_KEY = MessageSchema.of("OffsetCommitKey", "0-1", "none",
            field("group", STRING),
            field("topic", STRING),
            field("partition", INT32));

    static final MessageSchema GROUP_METADATA_KEY = MessageSchema.of("GroupMetadataKey", "2", "none",
            field("group", STRING));

    static final MessageSchema OFFSET_COMMIT_VALUE = MessageSchema.of("OffsetCommitValue", "0-3", "none",
            field("offset", INT64),
            field("leader_epoch", INT32).versions("3+").defaultValue(OffsetAndMetadata.NO_LEADER_EPOCH),
            field("metadata", STRING),
            field("commit_timestamp", INT64),
            field("expire_timestamp", INT64).versions("1").defaultValue(-1L));

    static final StructSchema MEMBER = StructSchema.of("MemberMetadata",
            field("member_id", STRING),
            field("group_instance_id", STRING).versions("3+").nullable("3+").defaultNull(),
            field("client_id", STRING),
            field("client_host", STRING),
            field("rebalance_timeout", INT32).versions("1+").defaultValue(-1),
            field("session_timeout", INT32),
            field("subscription", BYTES),
            field("assignment", BYTES));

    static final MessageSchema GROUP_METADATA_VALUE = MessageSchema.of("GroupMetadataValue", "0-3", "none",
            field("protocol_type", STRING),
            field("generation", INT32),
            field("protocol", STRING).nullable("0+"),
            field("leader", STRING).nullable("0+"),
            field("current_state_timestamp", INT64).versions("2+").defaultValue(-1L),
            array("members", MEMBER));

    private CoordinatorRecordCodec() {
    }

    /** The record's key bytes. */
    public static ByteBuffer encodeKey(CoordinatorRecord record) {
        if (record instanceof OffsetCommit commit) {
            Struct key = OFFSET_COMMIT_KEY.newStruct();
            key.set("group", commit.groupId());
            key.set("topic", commit.partition().topic());
            key.setInt(key.field("partition"), commit.partition().partition());
            return withVersion(OFFSET_COMMIT_KEY, key, OFFSET_COMMIT_KEY_VERSION);
        }
        Struct key = GROUP_METADATA_KEY.newStruct();
        key.set("group", record.groupId());
        return withVersion(GROUP_METADATA_KEY, key, GROUP_METADATA_KEY_VERSION);
    }

    /** The record's value bytes, or null for a tombstone. */
    public static ByteBuffer encodeValue(CoordinatorRecord record) {
        if (record.isTombstone()) {
            return null;
        }
        if (record instanceof OffsetCommit commit) {
            OffsetAndMetadata offset = commit.value();
            Struct value = OFFSET_COMMIT_VALUE.newStruct();
            value.setLong(value.field("offset"), offset.offset());
            value.setInt(value.field("leader_epoch"), offset.leaderEpoch());
            value.set("metadata", offset.metadata());
            value.setLong(value.field("commit_timestamp"), offset.commitTimestampMs());
            if (offset.expireTimestampMs().isPresent()) {
                value.setLong(value.field("expire_timestamp"), offset.expireTimestampMs().getAsLong());
                return withVersion(OFFSET_COMMIT_VALUE, value, OFFSET_VALUE_VERSION_WITH_EXPIRY);
            }
            return withVersion(OFFSET_COMMIT_VALUE, value, OFFSET_VALUE_VERSION);
        }
        GroupMetadataValue group = ((GroupMetadata) record).value();
        Struct value = GROUP_METADATA_VALUE.newStruct();
        value.set("protocol_type", group.protocolType() == null ? "" : group.protocolType());
        value.setInt(value.field("generation"), group.generation());
        value.set("protocol", group.protocol());
        value.set("leader", group.leader());
        value.setLong(value.field("current_state_timestamp"), group.currentStateTimestampMs());
        for (StoredMember member : group.members()) {
            Struct out = value.addStruct("members");
            out.set("member_id", member.memberId());
            out.set("group_instance_id", member.groupInstanceId());
            out.set("client_id", member.clientId());
            out.set("client_host", member.clientHost());
            out.setInt(out.field("rebalance_timeout"), member.rebalanceTimeoutMs());
            out.setInt(out.field("session_timeout"), member.sessionTimeoutMs());
            out.set("subscription", ByteBuffer.wrap(member.subscription()));
            out.set("assignment", ByteBuffer.wrap(member.assignment()));
        }
        return withVersion(GROUP_METADATA_VALUE, value, GROUP_VALUE_VERSION);
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
            if (keyVersion == 0 || keyVersion == 1) {
                Struct k = MessageReader.read(OFFSET_COMMIT_KEY, keyVersion, keyBytes);
                OffsetKey partition = new OffsetKey(k.getString("topic"), k.getInt("partition"));
                return new OffsetCommit(k.getString("group"), partition, value == null ? null : decodeOffset(value));
            }
            if (keyVersion == GROUP_METADATA_KEY_VERSION) {
                Struct k = MessageReader.read(GROUP_METADATA_KEY, keyVersion, keyBytes);
                return new GroupMetadata(k.getString("group"), value == null ? null : decodeGroup(value));
            }
            throw new CorruptCoordinatorRecordException("unknown __consumer_offsets key version " + keyVersion);
        } catch (BufferUnderflowException | MalformedMessageException | IllegalArgumentException e) {
            throw new CorruptCoordinatorRecordException("unreadable __consumer_offsets record: " + e.getMessage());
        }
    }

    private static OffsetAndMetadata decodeOffset(ByteBuffer bytes) {
        ByteBuffer in = bytes.duplicate();
        short version = in.getShort();
        requireVersion(OFFSET_COMMIT_VALUE, version);
        Struct v = MessageReader.read(OFFSET_COMMIT_VALUE, version, in);
        long expire = v.getLong("expire_timestamp");
        return new OffsetAndMetadata(v.getLong("offset"), v.getInt("leader_epoch"), v.getString("metadata"),
                v.getLong("commit_timestamp"), expire >= 0 ? OptionalLong.of(expire) : OptionalLong.empty());
    }

    private static GroupMetadataValue decodeGroup(ByteBuffer bytes) {
        ByteBuffer in = bytes.duplicate();
        short version = in.getShort();
        requireVersion(GROUP_METADATA_VALUE, version);
        Struct v = MessageReader.read(GROUP_METADATA_VALUE, version, in);
        List<StoredMember> members = new ArrayList<>();
        for (Struct m : v.getStructs("members")) {
            int sessionTimeoutMs = m.getInt("session_timeout");
            int rebalanceTimeoutMs = m.getInt("rebalance_timeout");
            members.add(new StoredMember(m.getString("member_id"), m.getString("group_instance_id"),
                    m.getString("client_id"), m.getString("client_host"),
                    rebalanceTimeoutMs < 0 ? sessionTimeoutMs : rebalanceTimeoutMs, sessionTimeoutMs,
                    toArray(m.getBytes("subscription")), toArray(m.getBytes("assignment"))));
        }
        String protocolType = v.getString("protocol_type");
        return new GroupMetadataValue(protocolType.isEmpty() ? null : protocolType, v.getInt("generation"),
                v.getString("protocol"), v.getString("leader"), v.getLong("current_state_timestamp"), members);
    }

    private static void requireVersion(MessageSchema schema, short version) {
        if (!schema.validVersions().contains(version)) {
            throw new CorruptCoordinatorRecordException("unknown " + schema.name() + " version " + version);
        }
    }

    private static ByteBuffer withVersion(MessageSchema schema, Struct body, short version) {
        ByteBuffer out = ByteBuffer.allocate(2 + MessageWriter.sizeOf(schema, body, version));
        out.putShort(version);
        MessageWriter.write(schema, body, version, out);
        return out.flip();
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
