package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** TxnOffsetCommit (key 28) request and response, v0-5; flexible from v3; group metadata fields from v3 (KIP-447). */
public final class TxnOffsetCommitMessages {

    static final StructSchema REQUEST_PARTITION = StructSchema.of("TxnOffsetCommitRequestPartition",
            field("partition_index", INT32),
            field("committed_offset", INT64),
            field("committed_leader_epoch", INT32).versions("2+").defaultValue(-1),
            field("committed_metadata", STRING).nullable("0+"));

    static final StructSchema REQUEST_TOPIC = StructSchema.of("TxnOffsetCommitRequestTopic",
            field("name", STRING),
            array("partitions", REQUEST_PARTITION));

    public static final MessageSchema REQUEST = MessageSchema.of("TxnOffsetCommitRequest", "0-5", "3+",
            field("transactional_id", STRING),
            field("group_id", STRING),
            field("producer_id", INT64),
            field("producer_epoch", INT16),
            field("generation_id_or_member_epoch", INT32).versions("3+").defaultValue(-1),
            field("member_id", STRING).versions("3+"),
            field("group_instance_id", STRING).versions("3+").nullable("3+").defaultNull(),
            array("topics", REQUEST_TOPIC));

    static final StructSchema RESPONSE_PARTITION = StructSchema.of("TxnOffsetCommitResponsePartition",
            field("partition_index", INT32),
            field("error_code", INT16));

    static final StructSchema RESPONSE_TOPIC = StructSchema.of("TxnOffsetCommitResponseTopic",
            field("name", STRING),
            array("partitions", RESPONSE_PARTITION));

    public static final MessageSchema RESPONSE = MessageSchema.of("TxnOffsetCommitResponse", "0-5", "3+",
            field("throttle_time_ms", INT32),
            array("topics", RESPONSE_TOPIC));

    private TxnOffsetCommitMessages() {
    }
}
