package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BOOL;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** OffsetFetch (key 9) request and response, v1-9; flexible from v6; several groups per request from v8 (KIP-709). */
public final class OffsetFetchMessages {

    static final StructSchema REQUEST_TOPIC = StructSchema.of("OffsetFetchRequestTopic",
            field("name", STRING),
            array("partition_indexes", INT32));

    static final StructSchema REQUEST_GROUP_TOPIC = StructSchema.of("OffsetFetchRequestTopics",
            field("name", STRING),
            array("partition_indexes", INT32));

    static final StructSchema REQUEST_GROUP = StructSchema.of("OffsetFetchRequestGroup",
            field("group_id", STRING),
            field("member_id", STRING).versions("9+").nullable("9+").defaultNull(),
            field("member_epoch", INT32).versions("9+").defaultValue(-1),
            array("topics", REQUEST_GROUP_TOPIC).nullable("8+"));

    public static final MessageSchema REQUEST = MessageSchema.of("OffsetFetchRequest", "1-9", "6+",
            field("group_id", STRING).versions("0-7"),
            array("topics", REQUEST_TOPIC).versions("0-7").nullable("2-7"),
            array("groups", REQUEST_GROUP).versions("8+"),
            field("require_stable", BOOL).versions("7+"));

    static final StructSchema RESPONSE_PARTITION = StructSchema.of("OffsetFetchResponsePartition",
            field("partition_index", INT32),
            field("committed_offset", INT64),
            field("committed_leader_epoch", INT32).versions("5+").defaultValue(-1),
            field("metadata", STRING).nullable("0+"),
            field("error_code", INT16));

    static final StructSchema RESPONSE_TOPIC = StructSchema.of("OffsetFetchResponseTopic",
            field("name", STRING),
            array("partitions", RESPONSE_PARTITION));

    static final StructSchema GROUP_PARTITION = StructSchema.of("OffsetFetchResponsePartitions",
            field("partition_index", INT32),
            field("committed_offset", INT64),
            field("committed_leader_epoch", INT32).defaultValue(-1),
            field("metadata", STRING).nullable("0+"),
            field("error_code", INT16));

    static final StructSchema GROUP_TOPIC = StructSchema.of("OffsetFetchResponseTopics",
            field("name", STRING),
            array("partitions", GROUP_PARTITION));

    static final StructSchema RESPONSE_GROUP = StructSchema.of("OffsetFetchResponseGroup",
            field("group_id", STRING),
            array("topics", GROUP_TOPIC),
            field("error_code", INT16));

    public static final MessageSchema RESPONSE = MessageSchema.of("OffsetFetchResponse", "1-9", "6+",
            field("throttle_time_ms", INT32).versions("3+"),
            array("topics", RESPONSE_TOPIC).versions("0-7"),
            field("error_code", INT16).versions("2-7"),
            array("groups", RESPONSE_GROUP).versions("8+"));

    private OffsetFetchMessages() {
    }
}
