package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** DeleteGroups (key 42) request and response, v0-2; flexible from v2. */
public final class DeleteGroupsMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("DeleteGroupsRequest", "0-2", "2+",
            array("groups_names", STRING));

    static final StructSchema RESULT = StructSchema.of("DeletableGroupResult",
            field("group_id", STRING),
            field("error_code", INT16));

    public static final MessageSchema RESPONSE = MessageSchema.of("DeleteGroupsResponse", "0-2", "2+",
            field("throttle_time_ms", INT32),
            array("results", RESULT));

    private DeleteGroupsMessages() {
    }
}
