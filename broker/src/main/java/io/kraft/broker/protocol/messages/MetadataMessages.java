package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BOOL;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;
import static io.kraft.broker.protocol.schema.PrimitiveType.UUID;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** Metadata (key 3) request and response, v0-13; flexible from v9; topic ids from v10. */
public final class MetadataMessages {

    static final StructSchema REQUEST_TOPIC = StructSchema.of("MetadataRequestTopic",
            field("topic_id", UUID).versions("10+"),
            field("name", STRING).nullable("10+"));

    public static final MessageSchema REQUEST = MessageSchema.of("MetadataRequest", "0-13", "9+",
            array("topics", REQUEST_TOPIC).nullable("1+"),
            field("allow_auto_topic_creation", BOOL).versions("4+").defaultValue(true),
            field("include_cluster_authorized_operations", BOOL).versions("8-10"),
            field("include_topic_authorized_operations", BOOL).versions("8+"));

    static final StructSchema BROKER = StructSchema.of("MetadataResponseBroker",
            field("node_id", INT32),
            field("host", STRING),
            field("port", INT32),
            field("rack", STRING).versions("1+").nullable("1+").defaultNull());

    static final StructSchema PARTITION = StructSchema.of("MetadataResponsePartition",
            field("error_code", INT16),
            field("partition_index", INT32),
            field("leader_id", INT32),
            field("leader_epoch", INT32).versions("7+").defaultValue(-1),
            array("replica_nodes", INT32),
            array("isr_nodes", INT32),
            array("offline_replicas", INT32).versions("5+"));

    static final StructSchema TOPIC = StructSchema.of("MetadataResponseTopic",
            field("error_code", INT16),
            field("name", STRING).nullable("12+"),
            field("topic_id", UUID).versions("10+"),
            field("is_internal", BOOL).versions("1+"),
            array("partitions", PARTITION),
            field("topic_authorized_operations", INT32).versions("8+").defaultValue(Integer.MIN_VALUE));

    public static final MessageSchema RESPONSE = MessageSchema.of("MetadataResponse", "0-13", "9+",
            field("throttle_time_ms", INT32).versions("3+"),
            array("brokers", BROKER),
            field("cluster_id", STRING).versions("2+").nullable("2+").defaultNull(),
            field("controller_id", INT32).versions("1+").defaultValue(-1),
            array("topics", TOPIC),
            field("cluster_authorized_operations", INT32).versions("8-10").defaultValue(Integer.MIN_VALUE),
            field("error_code", INT16).versions("13+"));

    private MetadataMessages() {
    }
}
