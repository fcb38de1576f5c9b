package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BOOL;
import static io.kraft.broker.protocol.schema.PrimitiveType.BYTES;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** JoinGroup (key 11) request and response, v0-9; flexible from v6; static membership from v5 (KIP-345). */
public final class JoinGroupMessages {

    static final StructSchema PROTOCOL = StructSchema.of("JoinGroupRequestProtocol",
            field("name", STRING),
            field("metadata", BYTES));

    public static final MessageSchema REQUEST = MessageSchema.of("JoinGroupRequest", "0-9", "6+",
            field("group_id", STRING),
            field("session_timeout_ms", INT32),
            field("rebalance_timeout_ms", INT32).versions("1+").defaultValue(-1),
            field("member_id", STRING),
            field("group_instance_id", STRING).versions("5+").nullable("5+").defaultNull(),
            field("protocol_type", STRING),
            array("protocols", PROTOCOL),
            field("reason", STRING).versions("8+").nullable("8+").defaultNull());

    static final StructSchema MEMBER = StructSchema.of("JoinGroupResponseMember",
            field("member_id", STRING),
            field("group_instance_id", STRING).versions("5+").nullable("5+").defaultNull(),
            field("metadata", BYTES));

    public static final MessageSchema RESPONSE = MessageSchema.of("JoinGroupResponse", "0-9", "6+",
            field("throttle_time_ms", INT32).versions("2+"),
            field("error_code", INT16),
            field("generation_id", INT32).defaultValue(-1),
            field("protocol_type", STRING).versions("7+").nullable("7+").defaultNull(),
            field("protocol_name", STRING).nullable("7+"),
            field("leader", STRING),
            field("skip_assignment", BOOL).versions("9+"),
            field("member_id", STRING),
            array("members", MEMBER));

    private JoinGroupMessages() {
    }
}
