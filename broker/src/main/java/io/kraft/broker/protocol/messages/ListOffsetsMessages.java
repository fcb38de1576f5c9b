package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT8;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** ListOffsets (key 2) request and response, v1-10; flexible from v6. */
public final class ListOffsetsMessages {

    static final StructSchema REQUEST_PARTITION = StructSchema.of("ListOffsetsPartition",
            field("partition_index", INT32),
            field("current_leader_epoch", INT32).versions("4+").defaultValue(-1),
            field("timestamp", INT64));

    static final StructSchema REQUEST_TOPIC = StructSchema.of("ListOffsetsTopic",
            field("name", STRING),
            array("partitions", REQUEST_PARTITION));

    public static final MessageSchema REQUEST = MessageSchema.of("ListOffsetsRequest", "1-10", "6+",
            field("replica_id", INT32),
            field("isolation_level", INT8).versions("2+"),
            array("topics", REQUEST_TOPIC),
            field("timeout_ms", INT32).versions("10+"));

    static final StructSchema RESPONSE_PARTITION = StructSchema.of("ListOffsetsPartitionResponse",
            field("partition_index", INT32),
            field("error_code", INT16),
            field("timestamp", INT64).versions("1+").defaultValue(-1L),
            field("offset", INT64).versions("1+").defaultValue(-1L),
            field("leader_epoch", INT32).versions("4+").defaultValue(-1));

    static final StructSchema RESPONSE_TOPIC = StructSchema.of("ListOffsetsTopicResponse",
            field("name", STRING),
            array("partitions", RESPONSE_PARTITION));

    public static final MessageSchema RESPONSE = MessageSchema.of("ListOffsetsResponse", "1-10", "6+",
            field("throttle_time_ms", INT32).versions("2+"),
            array("topics", RESPONSE_TOPIC));

    private ListOffsetsMessages() {
    }
}
