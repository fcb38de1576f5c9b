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

/** DescribeGroups (key 15) request and response, v0-6; flexible from v5. */
public final class DescribeGroupsMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("DescribeGroupsRequest", "0-6", "5+",
            array("groups", STRING),
            field("include_authorized_operations", BOOL).versions("3+"));

    static final StructSchema MEMBER = StructSchema.of("DescribedGroupMember",
            field("member_id", STRING),
            field("group_instance_id", STRING).versions("4+").nullable("4+").defaultNull(),
            field("client_id", STRING),
            field("client_host", STRING),
            field("member_metadata", BYTES),
            field("member_assignment", BYTES));

    static final StructSchema GROUP = StructSchema.of("DescribedGroup",
            field("error_code", INT16),
            field("error_message", STRING).versions("6+").nullable("6+").defaultNull(),
            field("group_id", STRING),
            field("group_state", STRING),
            field("protocol_type", STRING),
            field("protocol_data", STRING),
            array("members", MEMBER),
            field("authorized_operations", INT32).versions("3+").defaultValue(Integer.MIN_VALUE));

    public static final MessageSchema RESPONSE = MessageSchema.of("DescribeGroupsResponse", "0-6", "5+",
            field("throttle_time_ms", INT32).versions("1+"),
            array("groups", GROUP));

    private DescribeGroupsMessages() {
    }
}
