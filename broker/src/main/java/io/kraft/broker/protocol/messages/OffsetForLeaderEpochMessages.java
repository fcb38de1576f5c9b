package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** OffsetForLeaderEpoch (key 23) request and response, v2-4; flexible from v4 (KIP-320). */
public final class OffsetForLeaderEpochMessages {

    static final StructSchema PARTITION = StructSchema.of("OffsetForLeaderPartition",
            field("partition", INT32),
            field("current_leader_epoch", INT32).versions("2+").defaultValue(-1),
            field("leader_epoch", INT32));

    static final StructSchema TOPIC = StructSchema.of("OffsetForLeaderTopic",
            field("topic", STRING),
            array("partitions", PARTITION));

    public static final MessageSchema REQUEST = MessageSchema.of("OffsetForLeaderEpochRequest", "2-4", "4+",
            field("replica_id", INT32).versions("3+").defaultValue(-2),
            array("topics", TOPIC));

    static final StructSchema END_OFFSET = StructSchema.of("EpochEndOffset",
            field("error_code", INT16),
            field("partition", INT32),
            field("leader_epoch", INT32).versions("1+").defaultValue(-1),
            field("end_offset", INT64).defaultValue(-1L));

    static final StructSchema TOPIC_RESULT = StructSchema.of("OffsetForLeaderTopicResult",
            field("topic", STRING),
            array("partitions", END_OFFSET));

    public static final MessageSchema RESPONSE = MessageSchema.of("OffsetForLeaderEpochResponse", "2-4", "4+",
            field("throttle_time_ms", INT32).versions("2+"),
            array("topics", TOPIC_RESULT));

    private OffsetForLeaderEpochMessages() {
    }
}
