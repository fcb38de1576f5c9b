package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** LeaveGroup (key 13) request and response, v0-5; flexible from v4; batched members from v3 (KIP-345). */
public final class LeaveGroupMessages {

    static final StructSchema MEMBER = StructSchema.of("MemberIdentity",
            field("member_id", STRING),
            field("group_instance_id", STRING).nullable("0+").defaultNull(),
            field("reason", STRING).versions("5+").nullable("5+").defaultNull());

    public static final MessageSchema REQUEST = MessageSchema.of("LeaveGroupRequest", "0-5", "4+",
            field("group_id", STRING),
            field("member_id", STRING).versions("0-2"),
            array("members", MEMBER).versions("3+"));

    static final StructSchema MEMBER_RESPONSE = StructSchema.of("MemberResponse",
            field("member_id", STRING),
            field("group_instance_id", STRING).nullable("0+"),
            field("error_code", INT16));

    public static final MessageSchema RESPONSE = MessageSchema.of("LeaveGroupResponse", "0-5", "4+",
            field("throttle_time_ms", INT32).versions("1+"),
            field("error_code", INT16),
            array("members", MEMBER_RESPONSE).versions("3+"));

    private LeaveGroupMessages() {
    }
}
