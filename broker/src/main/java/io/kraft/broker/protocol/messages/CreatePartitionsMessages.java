package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BOOL;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** CreatePartitions (key 37) request and response, v0-3; flexible from v2. */
public final class CreatePartitionsMessages {

    static final StructSchema ASSIGNMENT = StructSchema.of("CreatePartitionsAssignment",
            array("broker_ids", INT32));

    static final StructSchema TOPIC = StructSchema.of("CreatePartitionsTopic",
            field("name", STRING),
            field("count", INT32),
            array("assignments", ASSIGNMENT).nullable("0+"));

    public static final MessageSchema REQUEST = MessageSchema.of("CreatePartitionsRequest", "0-3", "2+",
            array("topics", TOPIC),
            field("timeout_ms", INT32),
            field("validate_only", BOOL));

    static final StructSchema RESULT = StructSchema.of("CreatePartitionsTopicResult",
            field("name", STRING),
            field("error_code", INT16),
            field("error_message", STRING).nullable("0+").defaultNull());

    public static final MessageSchema RESPONSE = MessageSchema.of("CreatePartitionsResponse", "0-3", "2+",
            field("throttle_time_ms", INT32),
            array("results", RESULT));

    private CreatePartitionsMessages() {
    }
}
