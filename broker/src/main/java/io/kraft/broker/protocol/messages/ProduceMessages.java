package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.FieldSpec.struct;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.RECORDS;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** Produce (key 0) request and response, v3-12 (v0-2 are advertised only); flexible from v9. */
public final class ProduceMessages {

    static final StructSchema PARTITION_DATA = StructSchema.of("PartitionProduceData",
            field("index", INT32),
            field("records", RECORDS).nullable("0+"));

    static final StructSchema TOPIC_DATA = StructSchema.of("TopicProduceData",
            field("name", STRING),
            array("partition_data", PARTITION_DATA));

    public static final MessageSchema REQUEST = MessageSchema.of("ProduceRequest", "3-12", "9+",
            field("transactional_id", STRING).versions("3+").nullable("3+").defaultNull(),
            field("acks", INT16),
            field("timeout_ms", INT32),
            array("topic_data", TOPIC_DATA));

    static final StructSchema BATCH_INDEX_ERROR = StructSchema.of("BatchIndexAndErrorMessage",
            field("batch_index", INT32),
            field("batch_index_error_message", STRING).nullable("8+").defaultNull());

    static final StructSchema LEADER_ID_AND_EPOCH = StructSchema.of("LeaderIdAndEpoch",
            field("leader_id", INT32).defaultValue(-1),
            field("leader_epoch", INT32).defaultValue(-1));

    static final StructSchema PARTITION_RESPONSE = StructSchema.of("PartitionProduceResponse",
            field("index", INT32),
            field("error_code", INT16),
            field("base_offset", INT64),
            field("log_append_time_ms", INT64).versions("2+").defaultValue(-1L),
            field("log_start_offset", INT64).versions("5+").defaultValue(-1L),
            array("record_errors", BATCH_INDEX_ERROR).versions("8+"),
            field("error_message", STRING).versions("8+").nullable("8+").defaultNull(),
            struct("current_leader", LEADER_ID_AND_EPOCH)
                    .versions("10+").tagged(0));

    static final StructSchema TOPIC_RESPONSE = StructSchema.of("TopicProduceResponse",
            field("name", STRING),
            array("partition_responses", PARTITION_RESPONSE));

    static final StructSchema NODE_ENDPOINT = StructSchema.of("NodeEndpoint",
            field("node_id", INT32),
            field("host", STRING),
            field("port", INT32),
            field("rack", STRING).nullable("0+").defaultNull());

    public static final MessageSchema RESPONSE = MessageSchema.of("ProduceResponse", "3-12", "9+",
            array("responses", TOPIC_RESPONSE),
            field("throttle_time_ms", INT32).versions("1+"),
            array("node_endpoints", NODE_ENDPOINT).versions("10+").tagged(0));

    private ProduceMessages() {
    }
}
