package io.kraft.broker.protocol.schema;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.FieldSpec.struct;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generic value holder, the schema DSL's checks, and the writer's version rules. */
class StructTest {
    static final StructSchema LEADER = StructSchema.of("Leader",
            field("leader_id", PrimitiveType.INT32).defaultValue(-1),
            field("leader_epoch", PrimitiveType.INT32).defaultValue(-1));
    static final StructSchema ITEM = StructSchema.of("Item",
            field("id", PrimitiveType.INT32),
            field("label", PrimitiveType.STRING).nullable("0+").defaultNull());
    static final MessageSchema MESSAGE = MessageSchema.of("Sample", "0-3", "2+",
            field("count", PrimitiveType.INT16).defaultValue(7),
            field("big", PrimitiveType.INT64).versions("1+").defaultValue(-1L),
            field("ratio", PrimitiveType.FLOAT64),
            field("flag", PrimitiveType.BOOL).defaultValue(true),
            field("name", PrimitiveType.STRING),
            field("payload", PrimitiveType.BYTES).versions("1+"),
            array("items", ITEM),
            array("ids", PrimitiveType.INT32).nullable("3+"),
            struct("leader", LEADER).versions("2+").tagged(0),
            field("note", PrimitiveType.STRING).versions("2+").nullable("2+").defaultNull().tagged(1));

    @Test
    void freshStructsHoldDefaults() {
        Struct s = MESSAGE.newStruct();
        assertEquals(7, s.getShort("count"));
        assertEquals(-1L, s.getLong("big"));
        assertTrue(s.getBoolean("flag"));
        assertEquals("", s.getString("name"));
        assertEquals(0, s.getBytes("payload").remaining());
        assertEquals(List.of(), s.getStructs("items"));
        assertEquals(-1, s.getStruct("leader").getInt("leader_id"));
        assertNull(s.getString("note"));
        assertEquals((short) 7, s.get("count"));
    }

    @Test
    void fieldsAbsentAtAVersionReadAsDefaultsAndAreNotWritten() {
        Struct s = MESSAGE.newStruct().set("big", 99L).set("payload", ByteBuffer.wrap(new byte[] {1, 2}));
        ByteBuffer v0 = MessageWriter.toBuffer(MESSAGE, s, (short) 0);
        Struct back = MessageReader.read(MESSAGE, (short) 0, v0);
        assertEquals(-1L, back.getLong("big"));
        assertEquals(0, back.getBytes("payload").remaining());
        ByteBuffer v1 = MessageWriter.toBuffer(MESSAGE, s, (short) 1);
        assertEquals(99L, MessageReader.read(MESSAGE, (short) 1, v1).getLong("big"));
    }

    @Test
    void taggedFieldsAreOmittedAtTheirDefaultAndSentOtherwise() {
        Struct s = MESSAGE.newStruct();
        int plain = MessageWriter.sizeOf(MESSAGE, s, (short) 2);
        s.getStruct("leader").setInt(LEADER.field("leader_epoch"), 5);
        s.set("note", "hi");
        ByteBuffer bytes = MessageWriter.toBuffer(MESSAGE, s, (short) 2);
        // tag 0: tag + size + (4 + 4 + 1 empty tag section); tag 1: tag + size + (1 + 2)
        assertEquals(plain + 2 + 9 + 2 + 3, bytes.remaining());
        Struct back = MessageReader.read(MESSAGE, (short) 2, bytes);
        assertEquals(5, back.getStruct("leader").getInt("leader_epoch"));
        assertEquals(-1, back.getStruct("leader").getInt("leader_id"));
        assertEquals("hi", back.getString("note"));
        assertEquals(s, back);
    }

    @Test
    void arraysAreBuiltInPlaceAndNullOnlyWhereNullable() {
        Struct s = MESSAGE.newStruct();
        Struct item = s.addStruct("items");
        item.setInt(ITEM.field("id"), 3);
        s.addToList(MESSAGE.field("ids"), 11);
        assertEquals(1, s.getStructs("items").size());
        assertEquals(List.of(11), s.getList("ids"));
        s.set("ids", null);
        assertThrows(IllegalArgumentException.class, () -> MessageWriter.sizeOf(MESSAGE, s, (short) 2),
                "ids is not nullable before v3");
        ByteBuffer v3 = MessageWriter.toBuffer(MESSAGE, s, (short) 3);
        assertNull(MessageReader.read(MESSAGE, (short) 3, v3).getList("ids"));
    }

    @Test
    void bytesAreReadAsZeroCopySlices() {
        Struct s = MESSAGE.newStruct().set("payload", ByteBuffer.wrap(new byte[] {9, 8, 7}));
        ByteBuffer bytes = MessageWriter.toBuffer(MESSAGE, s, (short) 1);
        Struct back = MessageReader.read(MESSAGE, (short) 1, bytes.duplicate());
        ByteBuffer payload = back.getBytes("payload");
        assertSame(bytes.array(), payload.array(), "a slice of the input, not a copy");
        assertEquals(ByteBuffer.wrap(new byte[] {9, 8, 7}), payload);
    }

    @Test
    void misuseIsRejectedWithAClearMessage() {
        Struct s = MESSAGE.newStruct();
        IllegalArgumentException wrongOwner = assertThrows(IllegalArgumentException.class,
                () -> s.getInt(LEADER.field("leader_id")));
        assertTrue(wrongOwner.getMessage().contains("does not belong"));
        assertThrows(IllegalArgumentException.class, () -> s.setLong(MESSAGE.field("count"), 40_000));
        assertThrows(IllegalArgumentException.class, () -> s.set("name", 5));
        assertThrows(IllegalArgumentException.class, () -> s.set("name", null), "never nullable");
        assertThrows(IllegalArgumentException.class, () -> s.getString("count"));
        assertThrows(IllegalArgumentException.class, () -> s.get("nope"));
        assertThrows(IllegalArgumentException.class, () -> MessageWriter.sizeOf(MESSAGE, s, (short) 4));
        assertThrows(IllegalArgumentException.class, () -> MessageSchema.of("Bad", "0-3", "2+",
                field("x", PrimitiveType.INT32).versions("1+").tagged(0)), "tagged outside flexible versions");
        assertThrows(IllegalArgumentException.class, () -> StructSchema.of("Dup",
                field("x", PrimitiveType.INT32), field("x", PrimitiveType.INT8)));
    }
}
