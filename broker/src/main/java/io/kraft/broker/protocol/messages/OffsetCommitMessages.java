package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** OffsetCommit (key 8) request and response, v2-9; flexible from v8. */
public final class OffsetCommitMessages {

    static final StructSchema REQUEST_PARTITION = StructSchema.of("OffsetCommitRequestPartition",
            field("partition_index", INT32),
            field("committed_offset", INT64),
            field("committed_leader_epoch", INT32).versions("6+").defaultValue(-1),
            field("committed_metadata", STRING).nullable("0+"));

    static final StructSchema REQUEST_TOPIC = StructSchema.of("OffsetCommitRequestTopic",
            field("name", STRING),
            array("partitions", REQUEST_PARTITION));

    public static final MessageSchema REQUEST = MessageSchema.of("OffsetCommitRequest", "2-9", "8+",
            field("group_id", STRING),
            field("generation_id_or_member_epoch", INT32).versions("1+").defaultValue(-1),
            field("member_id", STRING).versions("1+"),
            field("group_instance_id", STRING).versions("7+").nullable("7+").defaultNull(),
            field("retention_time_ms", INT64).versions("2-4").defaultValue(-1L),
            array("topics", REQUEST_TOPIC));

    static final StructSchema RESPONSE_PARTITION = StructSchema.of("OffsetCommitResponsePartition",
            field("partition_index", INT32),
            field("error_code", INT16));

    static final StructSchema RESPONSE_TOPIC = StructSchema.of("OffsetCommitResponseTopic",
            field("name", STRING),
            array("partitions", RESPONSE_PARTITION));

    public static final MessageSchema RESPONSE = MessageSchema.of("OffsetCommitResponse", "2-9", "8+",
            field("throttle_time_ms", INT32).versions("3+"),
            array("topics", RESPONSE_TOPIC));

    private OffsetCommitMessages() {
    }
}
