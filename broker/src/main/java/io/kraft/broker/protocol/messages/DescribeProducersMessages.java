package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** DescribeProducers (key 61) request and response, v0 (flexible; KIP-664). */
public final class DescribeProducersMessages {

    static final StructSchema REQUEST_TOPIC = StructSchema.of("TopicRequest",
            field("name", STRING),
            array("partition_indexes", INT32));

    public static final MessageSchema REQUEST = MessageSchema.of("DescribeProducersRequest", "0", "0+",
            array("topics", REQUEST_TOPIC));

    static final StructSchema PRODUCER_STATE = StructSchema.of("ProducerState",
            field("producer_id", INT64),
            field("producer_epoch", INT32),
            field("last_sequence", INT32).defaultValue(-1),
            field("last_timestamp", INT64).defaultValue(-1L),
            field("coordinator_epoch", INT32),
            field("current_txn_start_offset", INT64).defaultValue(-1L));

    static final StructSchema PARTITION = StructSchema.of("PartitionResponse",
            field("partition_index", INT32),
            field("error_code", INT16),
            field("error_message", STRING).nullable("0+").defaultNull(),
            array("active_producers", PRODUCER_STATE));

    static final StructSchema TOPIC = StructSchema.of("TopicResponse",
            field("name", STRING),
            array("partitions", PARTITION));

    public static final MessageSchema RESPONSE = MessageSchema.of("DescribeProducersResponse", "0", "0+",
            field("throttle_time_ms", INT32),
            array("topics", TOPIC));

    private DescribeProducersMessages() {
    }
}
