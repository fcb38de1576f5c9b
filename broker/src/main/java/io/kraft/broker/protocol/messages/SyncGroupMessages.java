package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BYTES;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** SyncGroup (key 14) request and response, v0-5; flexible from v4. */
public final class SyncGroupMessages {

    static final StructSchema ASSIGNMENT = StructSchema.of("SyncGroupRequestAssignment",
            field("member_id", STRING),
            field("assignment", BYTES));

    public static final MessageSchema REQUEST = MessageSchema.of("SyncGroupRequest", "0-5", "4+",
            field("group_id", STRING),
            field("generation_id", INT32),
            field("member_id", STRING),
            field("group_instance_id", STRING).versions("3+").nullable("3+").defaultNull(),
            field("protocol_type", STRING).versions("5+").nullable("5+").defaultNull(),
            field("protocol_name", STRING).versions("5+").nullable("5+").defaultNull(),
            array("assignments", ASSIGNMENT));

    public static final MessageSchema RESPONSE = MessageSchema.of("SyncGroupResponse", "0-5", "4+",
            field("throttle_time_ms", INT32).versions("1+"),
            field("error_code", INT16),
            field("protocol_type", STRING).versions("5+").nullable("5+").defaultNull(),
            field("protocol_name", STRING).versions("5+").nullable("5+").defaultNull(),
            field("assignment", BYTES));

    private SyncGroupMessages() {
    }
}
