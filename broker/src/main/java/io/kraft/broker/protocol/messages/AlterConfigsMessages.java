package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BOOL;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT8;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** AlterConfigs (key 33) request and response, v0-2; flexible from v2. */
public final class AlterConfigsMessages {

    static final StructSchema CONFIG = StructSchema.of("AlterableConfig",
            field("name", STRING),
            field("value", STRING).nullable("0+"));

    static final StructSchema RESOURCE = StructSchema.of("AlterConfigsResource",
            field("resource_type", INT8),
            field("resource_name", STRING),
            array("configs", CONFIG));

    public static final MessageSchema REQUEST = MessageSchema.of("AlterConfigsRequest", "0-2", "2+",
            array("resources", RESOURCE),
            field("validate_only", BOOL));

    static final StructSchema RESULT = StructSchema.of("AlterConfigsResourceResponse",
            field("error_code", INT16),
            field("error_message", STRING).nullable("0+"),
            field("resource_type", INT8),
            field("resource_name", STRING));

    public static final MessageSchema RESPONSE = MessageSchema.of("AlterConfigsResponse", "0-2", "2+",
            field("throttle_time_ms", INT32),
            array("responses", RESULT));

    private AlterConfigsMessages() {
    }
}
