package io.kraft.broker.group;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.CoordinatorRecord.GroupMetadata;
import io.kraft.broker.group.CoordinatorRecord.GroupMetadataValue;
import io.kraft.broker.group.CoordinatorRecord.OffsetCommit;
import io.kraft.broker.group.CoordinatorRecord.StoredMember;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The {@code __consumer_offsets} layouts: round trips, tombstones, versions, and unreadable input. */
class CoordinatorRecordCodecTest {

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
    void unknownVersionsAndTruncatedBytesAreCorrupt() {
        ByteBuffer unknownKey = ByteBuffer.allocate(4).putShort((short) 9).putShort((short) 0).flip();
        assertThrows(CorruptCoordinatorRecordException.class, () -> CoordinatorRecordCodec.decode(unknownKey, null));
        ByteBuffer key = CoordinatorRecordCodec.encodeKey(new GroupMetadata("g", null));
        ByteBuffer truncated = key.duplicate().limit(key.limit() - 1);
        assertThrows(CorruptCoordinatorRecordException.class, () -> CoordinatorRecordCodec.decode(truncated, null));
        assertThrows(CorruptCoordinatorRecordException.class, () -> CoordinatorRecordCodec.decode(null, null));
        ByteBuffer badValue = ByteBuffer.allocate(2).putShort((short) 42).flip();
        assertThrows(CorruptCoordinatorRecordException.class, () -> CoordinatorRecordCodec.decode(key, badValue));
    }
}
