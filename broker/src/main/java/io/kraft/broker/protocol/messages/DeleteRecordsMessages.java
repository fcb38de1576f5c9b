package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** DeleteRecords (key 21) request and response, v0-2; flexible from v2. */
public final class DeleteRecordsMessages {

    static final StructSchema PARTITION = StructSchema.of("DeleteRecordsPartition",
            field("partition_index", INT32),
            field("offset", INT64));

    static final StructSchema TOPIC = StructSchema.of("DeleteRecordsTopic",
            field("name", STRING),
            array("partitions", PARTITION));

    public static final MessageSchema REQUEST = MessageSchema.of("DeleteRecordsRequest", "0-2", "2+",
            array("topics", TOPIC),
            field("timeout_ms", INT32));

    static final StructSchema PARTITION_RESULT = StructSchema.of("DeleteRecordsPartitionResult",
            field("partition_index", INT32),
            field("low_watermark", INT64),
            field("error_code", INT16));

    static final StructSchema TOPIC_RESULT = StructSchema.of("DeleteRecordsTopicResult",
            field("name", STRING),
            array("partitions", PARTITION_RESULT));

    public static final MessageSchema RESPONSE = MessageSchema.of("DeleteRecordsResponse", "0-2", "2+",
            field("throttle_time_ms", INT32),
            array("topics", TOPIC_RESULT));

    private DeleteRecordsMessages() {
    }
}
