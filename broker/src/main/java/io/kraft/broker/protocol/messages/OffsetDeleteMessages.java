package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** OffsetDelete (key 47) request and response, v0; never flexible (KIP-496). */
public final class OffsetDeleteMessages {

    static final StructSchema REQUEST_PARTITION = StructSchema.of("OffsetDeleteRequestPartition",
            field("partition_index", INT32));

    static final StructSchema REQUEST_TOPIC = StructSchema.of("OffsetDeleteRequestTopic",
            field("name", STRING),
            array("partitions", REQUEST_PARTITION));

    public static final MessageSchema REQUEST = MessageSchema.of("OffsetDeleteRequest", "0", "none",
            field("group_id", STRING),
            array("topics", REQUEST_TOPIC));

    static final StructSchema RESPONSE_PARTITION = StructSchema.of("OffsetDeleteResponsePartition",
            field("partition_index", INT32),
            field("error_code", INT16));

    static final StructSchema RESPONSE_TOPIC = StructSchema.of("OffsetDeleteResponseTopic",
            field("name", STRING),
            array("partitions", RESPONSE_PARTITION));

    public static final MessageSchema RESPONSE = MessageSchema.of("OffsetDeleteResponse", "0", "none",
            field("error_code", INT16),
            field("throttle_time_ms", INT32),
            array("topics", RESPONSE_TOPIC));

    private OffsetDeleteMessages() {
    }
}
