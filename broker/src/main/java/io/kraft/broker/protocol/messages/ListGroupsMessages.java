package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** ListGroups (key 16) request and response, v0-5; flexible from v3; state filter from v4, type filter from v5 (KIP-848). */
public final class ListGroupsMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("ListGroupsRequest", "0-5", "3+",
            array("states_filter", STRING).versions("4+"),
            array("types_filter", STRING).versions("5+"));

    static final StructSchema GROUP = StructSchema.of("ListedGroup",
            field("group_id", STRING),
            field("protocol_type", STRING),
            field("group_state", STRING).versions("4+"),
            field("group_type", STRING).versions("5+"));

    public static final MessageSchema RESPONSE = MessageSchema.of("ListGroupsResponse", "0-5", "3+",
            field("throttle_time_ms", INT32).versions("1+"),
            field("error_code", INT16),
            array("groups", GROUP));

    private ListGroupsMessages() {
    }
}
