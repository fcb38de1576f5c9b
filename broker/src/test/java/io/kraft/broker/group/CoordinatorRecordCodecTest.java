package io.kraft.broker.group;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.CoordinatorRecord.GroupMetadata;
import io.kraft.broker.group.CoordinatorRecord.GroupMetadataValue;
import io.kraft.broker.group.CoordinatorRecord.OffsetCommit;
import io.kraft.broker.group.CoordinatorRecord.StoredMember;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The {@code __consumer_offsets} layouts: round trips, tombstones, versions, unreadable input, and the exact bytes
 * earlier brokers wrote. kafka-clients has no classes for these records (they live in Kafka's group coordinator),
 * so the judge of the bytes is what the Struct-schema codec wrote before the layouts became data specs, captured
 * below as hex, plus the older versions of each layout that Kafka documents.
 */
class CoordinatorRecordCodecTest {
    private static final OffsetCommit COMMIT = new OffsetCommit("group-1", new OffsetKey("topic-a", 7),
            OffsetAndMetadata.of(42, 5, "meta", 1_700_000_000_000L));
    private static final OffsetCommit EXPIRING_COMMIT = new OffsetCommit("group-1", new OffsetKey("topic-a", 7),
            new OffsetAndMetadata(42, -1, "", 1_000L, OptionalLong.of(9_000L)));
    private static final GroupMetadata GROUP = new GroupMetadata("group-1", new GroupMetadataValue("consumer", 7,
            "range", "m1", 123L, List.of(
                    new StoredMember("m1", null, "c1", "/10.0.0.1", 300_000, 45_000, new byte[] {1}, new byte[] {2}),
                    new StoredMember("m2", "instance-2", "c2", "/10.0.0.2", 300_000, 45_000, new byte[0],
                            new byte[] {3}))));
    private static final GroupMetadata EMPTY_GROUP = new GroupMetadata("group-1",
            new GroupMetadataValue(null, 3, null, null, 5L, List.of()));

    // What the Struct-schema codec wrote for the records above: an int16 version, then the body.
    private static final String OFFSET_KEY_V1 = "0001" + "000767726f75702d31" + "0007746f7069632d61" + "00000007";
    private static final String OFFSET_VALUE_V3 = "0003" + "000000000000002a" + "00000005" + "00046d657461"
            + "0000018bcfe56800";
    private static final String OFFSET_VALUE_V1 = "0001" + "000000000000002a" + "0000" + "00000000000003e8"
            + "0000000000002328";
    private static final String GROUP_KEY_V2 = "0002" + "000767726f75702d31";
    private static final String GROUP_VALUE_V3 = "0003" + "0008636f6e73756d6572" + "00000007" + "000572616e6765"
            + "00026d31" + "000000000000007b" + "00000002"
            + "00026d31" + "ffff" + "00026331" + "00092f31302e302e302e31" + "000493e0" + "0000afc8" + "0000000101"
            + "0000000102"
            + "00026d32" + "000a696e7374616e63652d32" + "00026332" + "00092f31302e302e302e32" + "000493e0" + "0000afc8"
            + "00000000" + "0000000103";
    private static final String EMPTY_GROUP_VALUE_V3 = "0003" + "0000" + "00000003" + "ffff" + "ffff"
            + "0000000000000005" + "00000000";

    // Older layouts a broker may find on disk: offset key v0; offset values v0 and v2 (offset 42, "meta",
    // committed at 1000); group values v0-2 (consumer, generation 4, range, leader m1, at 77 from v2, one member
    // m1/c1//h with rebalance timeout 60000 from v1, session timeout 10000, subscription {9}, assignment {8, 7}).
    private static final String OFFSET_KEY_V0 = "0000" + "000767726f75702d31" + "0007746f7069632d61" + "00000007";
    private static final String OFFSET_VALUE_V0 = "0000" + "000000000000002a" + "00046d657461" + "00000000000003e8";
    private static final String OFFSET_VALUE_V2 = "0002" + "000000000000002a" + "00046d657461" + "00000000000003e8";
    private static final String GROUP_HEAD = "0008636f6e73756d6572" + "00000004" + "000572616e6765" + "00026d31";
    private static final String MEMBER_HEAD = "00000001" + "00026d31" + "00026331" + "00022f68";
    private static final String MEMBER_TAIL = "00002710" + "0000000109" + "000000020807";
    private static final String GROUP_VALUE_V0 = "0000" + GROUP_HEAD + MEMBER_HEAD + MEMBER_TAIL;
    private static final String GROUP_VALUE_V1 = "0001" + GROUP_HEAD + MEMBER_HEAD + "0000ea60" + MEMBER_TAIL;
    private static final String GROUP_VALUE_V2 = "0002" + GROUP_HEAD + "000000000000004d" + MEMBER_HEAD + "0000ea60"
            + MEMBER_TAIL;

    private static CoordinatorRecord roundTrip(CoordinatorRecord record) {
        return CoordinatorRecordCodec.decode(CoordinatorRecordCodec.encodeKey(record),
                CoordinatorRecordCodec.encodeValue(record));
    }

    @Test
    void offsetCommitsRoundTripWithAndWithoutAnExplicitExpiry() {
        OffsetCommit plain = new OffsetCommit("g", new OffsetKey("t", 3), OffsetAndMetadata.of(42, 5, "meta", 1_000));
        assertEquals(plain, roundTrip(plain));
        ByteBuffer value = CoordinatorRecordCodec.encodeValue(plain);
        assertEquals(3, value.getShort(0), "written as value v3");
        assertEquals(1, CoordinatorRecordCodec.encodeKey(plain).getShort(0), "offset keys are v1");

        OffsetCommit expiring = new OffsetCommit("g", new OffsetKey("t", 3),
                new OffsetAndMetadata(42, -1, "", 1_000, OptionalLong.of(9_000)));
        assertEquals(expiring, roundTrip(expiring));
        assertEquals(1, CoordinatorRecordCodec.encodeValue(expiring).getShort(0));
    }

    @Test
    void groupMetadataRoundTripsWithStaticAndDynamicMembers() {
        GroupMetadata group = new GroupMetadata("g", new GroupMetadataValue("consumer", 7, "range", "m1", 123L, List.of(
                new StoredMember("m1", null, "c1", "/10.0.0.1", 300_000, 45_000, new byte[] {1}, new byte[] {2}),
                new StoredMember("m2", "instance-2", "c2", "/10.0.0.2", 300_000, 45_000, new byte[0], new byte[] {3}))));
        GroupMetadata decoded = (GroupMetadata) roundTrip(group);
        GroupMetadataValue value = decoded.value();
        assertEquals("consumer", value.protocolType());
        assertEquals(7, value.generation());
        assertEquals("range", value.protocol());
        assertEquals("m1", value.leader());
        assertEquals(123L, value.currentStateTimestampMs());
        assertEquals("instance-2", value.members().get(1).groupInstanceId());
        assertArrayEquals(new byte[] {3}, value.members().get(1).assignment());
        assertEquals(2, CoordinatorRecordCodec.encodeKey(group).getShort(0), "group keys are v2");
    }

    @Test
    void anEmptyGroupHasNoProtocolOrLeader() {
        GroupMetadata empty = new GroupMetadata("g", new GroupMetadataValue("consumer", 3, null, null, 5L, List.of()));
        GroupMetadataValue value = ((GroupMetadata) roundTrip(empty)).value();
        assertNull(value.protocol());
        assertNull(value.leader());
        assertTrue(value.members().isEmpty());
    }

    @Test
    void tombstonesHaveKeysButNoValue() {
        OffsetCommit tombstone = new OffsetCommit("g", new OffsetKey("t", 0), null);
        assertNull(CoordinatorRecordCodec.encodeValue(tombstone));
        assertTrue(roundTrip(tombstone).isTombstone());
        assertTrue(roundTrip(new GroupMetadata("g", null)).isTombstone());
    }

    @Test
    void writesTheBytesTheStructCodecWrote() {
        assertEquals(OFFSET_KEY_V1, hex(CoordinatorRecordCodec.encodeKey(COMMIT)));
        assertEquals(OFFSET_VALUE_V3, hex(CoordinatorRecordCodec.encodeValue(COMMIT)));
        assertEquals(OFFSET_KEY_V1, hex(CoordinatorRecordCodec.encodeKey(EXPIRING_COMMIT)));
        assertEquals(OFFSET_VALUE_V1, hex(CoordinatorRecordCodec.encodeValue(EXPIRING_COMMIT)));
        assertEquals(GROUP_KEY_V2, hex(CoordinatorRecordCodec.encodeKey(GROUP)));
        assertEquals(GROUP_VALUE_V3, hex(CoordinatorRecordCodec.encodeValue(GROUP)));
        assertEquals(GROUP_KEY_V2, hex(CoordinatorRecordCodec.encodeKey(new GroupMetadata("group-1", null))));
        assertEquals(EMPTY_GROUP_VALUE_V3, hex(CoordinatorRecordCodec.encodeValue(EMPTY_GROUP)));
    }

    @Test
    void readsWhatEarlierBrokersWrote() {
        assertEquals(COMMIT, decode(OFFSET_KEY_V1, OFFSET_VALUE_V3));
        assertEquals(EXPIRING_COMMIT, decode(OFFSET_KEY_V1, OFFSET_VALUE_V1));
        assertSameGroup(GROUP, decode(GROUP_KEY_V2, GROUP_VALUE_V3));
        assertSameGroup(EMPTY_GROUP, decode(GROUP_KEY_V2, EMPTY_GROUP_VALUE_V3));
        assertTrue(decode(OFFSET_KEY_V1, null).isTombstone());
    }

    @Test
    void readsTheOlderVersionsOfEveryLayout() {
        OffsetCommit noEpoch = new OffsetCommit("group-1", new OffsetKey("topic-a", 7),
                OffsetAndMetadata.of(42, OffsetAndMetadata.NO_LEADER_EPOCH, "meta", 1_000L));
        assertEquals(noEpoch, decode(OFFSET_KEY_V0, OFFSET_VALUE_V0), "v0: no leader epoch, no expiry");
        assertEquals(noEpoch, decode(OFFSET_KEY_V1, OFFSET_VALUE_V2), "v2: no leader epoch, no expiry");

        byte[] subscription = {9};
        byte[] assignment = {8, 7};
        StoredMember sessionOnly = new StoredMember("m1", null, "c1", "/h", 10_000, 10_000, subscription, assignment);
        StoredMember withRebalance = new StoredMember("m1", null, "c1", "/h", 60_000, 10_000, subscription, assignment);
        assertSameGroup(new GroupMetadata("group-1", new GroupMetadataValue("consumer", 4, "range", "m1", -1L,
                List.of(sessionOnly))), decode(GROUP_KEY_V2, GROUP_VALUE_V0), "v0: the session timeout stands for both");
        assertSameGroup(new GroupMetadata("group-1", new GroupMetadataValue("consumer", 4, "range", "m1", -1L,
                List.of(withRebalance))), decode(GROUP_KEY_V2, GROUP_VALUE_V1), "v1: a rebalance timeout");
        assertSameGroup(new GroupMetadata("group-1", new GroupMetadataValue("consumer", 4, "range", "m1", 77L,
                List.of(withRebalance))), decode(GROUP_KEY_V2, GROUP_VALUE_V2), "v2: the state's timestamp");
    }

    @Test
    void unknownVersionsAndTruncatedBytesAreCorrupt() {
        ByteBuffer unknownKey = ByteBuffer.allocate(4).putShort((short) 9).putShort((short) 0).flip();
        assertThrows(CorruptCoordinatorRecordException.class, () -> CoordinatorRecordCodec.decode(unknownKey, null));
        ByteBuffer key = CoordinatorRecordCodec.encodeKey(new GroupMetadata("g", null));
        ByteBuffer truncated = key.duplicate().limit(key.limit() - 1);
        assertThrows(CorruptCoordinatorRecordException.class, () -> CoordinatorRecordCodec.decode(truncated, null));
        assertThrows(CorruptCoordinatorRecordException.class, () -> CoordinatorRecordCodec.decode(null, null));
        ByteBuffer badValue = ByteBuffer.allocate(2).putShort((short) 42).flip();
        CorruptCoordinatorRecordException unknown = assertThrows(CorruptCoordinatorRecordException.class,
                () -> CoordinatorRecordCodec.decode(key, badValue));
        assertEquals("unknown GroupMetadataValue version 42", unknown.getMessage());
        assertEquals("unknown OffsetCommitValue version 4", assertThrows(CorruptCoordinatorRecordException.class,
                () -> decode(OFFSET_KEY_V1, "0004" + OFFSET_VALUE_V3.substring(4))).getMessage());
        assertThrows(CorruptCoordinatorRecordException.class,
                () -> decode(GROUP_KEY_V2, GROUP_VALUE_V3.substring(0, GROUP_VALUE_V3.length() - 2)));
        assertThrows(CorruptCoordinatorRecordException.class, () -> decode("0001", null), "a key without its fields");
        assertThrows(CorruptCoordinatorRecordException.class, () -> decode("00", null), "half a version");
        String nullProtocolType = "0003" + "ffff" + EMPTY_GROUP_VALUE_V3.substring(8);
        assertThrows(CorruptCoordinatorRecordException.class, () -> decode(GROUP_KEY_V2, nullProtocolType),
                "the protocol type is never null");
    }

    private static CoordinatorRecord decode(String keyHex, String valueHex) {
        return CoordinatorRecordCodec.decode(bytes(keyHex), valueHex == null ? null : bytes(valueHex));
    }

    private static void assertSameGroup(GroupMetadata expected, CoordinatorRecord actual) {
        assertSameGroup(expected, actual, null);
    }

    /** GroupMetadata holds byte arrays, whose records compare by identity: compare member by member. */
    private static void assertSameGroup(GroupMetadata expected, CoordinatorRecord actual, String message) {
        GroupMetadata group = assertInstanceOf(GroupMetadata.class, actual, message);
        assertEquals(expected.groupId(), group.groupId(), message);
        GroupMetadataValue want = expected.value();
        GroupMetadataValue got = group.value();
        assertEquals(Arrays.asList(want.protocolType(), want.generation(), want.protocol(), want.leader(),
                        want.currentStateTimestampMs()),
                Arrays.asList(got.protocolType(), got.generation(), got.protocol(), got.leader(),
                        got.currentStateTimestampMs()), message);
        assertEquals(want.members().size(), got.members().size(), message);
        for (int i = 0; i < want.members().size(); i++) {
            StoredMember w = want.members().get(i);
            StoredMember g = got.members().get(i);
            assertEquals(w.memberId(), g.memberId(), message);
            assertEquals(w.groupInstanceId(), g.groupInstanceId(), message);
            assertEquals(w.clientId(), g.clientId(), message);
            assertEquals(w.clientHost(), g.clientHost(), message);
            assertEquals(w.rebalanceTimeoutMs(), g.rebalanceTimeoutMs(), message);
            assertEquals(w.sessionTimeoutMs(), g.sessionTimeoutMs(), message);
            assertArrayEquals(w.subscription(), g.subscription(), message);
            assertArrayEquals(w.assignment(), g.assignment(), message);
        }
    }

    private static String hex(ByteBuffer buffer) {
        return HexFormat.of().formatHex(CoordinatorRecordCodec.toArray(buffer));
    }

    private static ByteBuffer bytes(String hex) {
        return ByteBuffer.wrap(HexFormat.of().parseHex(hex));
    }
}
