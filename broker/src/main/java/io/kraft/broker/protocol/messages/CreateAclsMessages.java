package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT8;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** CreateAcls (key 30) request and response, v1-3; flexible from v2. */
public final class CreateAclsMessages {

    static final StructSchema CREATION = StructSchema.of("AclCreation",
            field("resource_type", INT8),
            field("resource_name", STRING),
            field("resource_pattern_type", INT8).versions("1+").defaultValue(3),
            field("principal", STRING),
            field("host", STRING),
            field("operation", INT8),
            field("permission_type", INT8));

    public static final MessageSchema REQUEST = MessageSchema.of("CreateAclsRequest", "1-3", "2+",
            array("creations", CREATION));

    static final StructSchema RESULT = StructSchema.of("AclCreationResult",
            field("error_code", INT16),
            field("error_message", STRING).nullable("0+"));

    public static final MessageSchema RESPONSE = MessageSchema.of("CreateAclsResponse", "1-3", "2+",
            field("throttle_time_ms", INT32),
            array("results", RESULT));

    private CreateAclsMessages() {
    }
}
