package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BOOL;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT8;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;
import static io.kraft.broker.protocol.schema.PrimitiveType.UUID;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** CreateTopics (key 19) request and response, v2-7; flexible from v5; topic ids in the response from v7. */
public final class CreateTopicsMessages {

    static final StructSchema ASSIGNMENT = StructSchema.of("CreatableReplicaAssignment",
            field("partition_index", INT32),
            array("broker_ids", INT32));

    static final StructSchema CONFIG = StructSchema.of("CreatableTopicConfig",
            field("name", STRING),
            field("value", STRING).nullable("0+"));

    static final StructSchema TOPIC = StructSchema.of("CreatableTopic",
            field("name", STRING),
            field("num_partitions", INT32),
            field("replication_factor", INT16),
            array("assignments", ASSIGNMENT),
            array("configs", CONFIG));

    public static final MessageSchema REQUEST = MessageSchema.of("CreateTopicsRequest", "2-7", "5+",
            array("topics", TOPIC),
            field("timeout_ms", INT32).defaultValue(60000),
            field("validate_only", BOOL).versions("1+"));

    static final StructSchema RESULT_CONFIG = StructSchema.of("CreatableTopicConfigs",
            field("name", STRING),
            field("value", STRING).nullable("5+"),
            field("read_only", BOOL),
            field("config_source", INT8).defaultValue(-1),
            field("is_sensitive", BOOL));

    static final StructSchema RESULT = StructSchema.of("CreatableTopicResult",
            field("name", STRING),
            field("topic_id", UUID).versions("7+"),
            field("error_code", INT16),
            field("error_message", STRING).versions("1+").nullable("0+").defaultNull(),
            field("topic_config_error_code", INT16).versions("5+").tagged(0),
            field("num_partitions", INT32).versions("5+").defaultValue(-1),
            field("replication_factor", INT16).versions("5+").defaultValue(-1),
            array("configs", RESULT_CONFIG).versions("5+").nullable("5+"));

    public static final MessageSchema RESPONSE = MessageSchema.of("CreateTopicsResponse", "2-7", "5+",
            field("throttle_time_ms", INT32).versions("2+"),
            array("topics", RESULT));

    private CreateTopicsMessages() {
    }
}
