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

/** AddPartitionsToTxn (key 24) request and response, v0-5; flexible from v3; the batched broker-to-broker form from v4 (KIP-890). */
public final class AddPartitionsToTxnMessages {

    static final StructSchema TOPIC = StructSchema.of("AddPartitionsToTxnTopic",
            field("name", STRING),
            array("partitions", INT32));

    static final StructSchema TRANSACTION = StructSchema.of("AddPartitionsToTxnTransaction",
            field("transactional_id", STRING),
            field("producer_id", INT64),
            field("producer_epoch", INT16),
            field("verify_only", BOOL),
            array("topics", TOPIC));

    public static final MessageSchema REQUEST = MessageSchema.of("AddPartitionsToTxnRequest", "0-5", "3+",
            array("transactions", TRANSACTION).versions("4+"),
            field("v3_and_below_transactional_id", STRING).versions("0-3"),
            field("v3_and_below_producer_id", INT64).versions("0-3"),
            field("v3_and_below_producer_epoch", INT16).versions("0-3"),
            array("v3_and_below_topics", TOPIC).versions("0-3"));

    static final StructSchema PARTITION_RESULT = StructSchema.of("AddPartitionsToTxnPartitionResult",
            field("partition_index", INT32),
            field("partition_error_code", INT16));

    static final StructSchema TOPIC_RESULT = StructSchema.of("AddPartitionsToTxnTopicResult",
            field("name", STRING),
            array("results_by_partition", PARTITION_RESULT));

    static final StructSchema RESULT = StructSchema.of("AddPartitionsToTxnResult",
            field("transactional_id", STRING),
            array("topic_results", TOPIC_RESULT));

    public static final MessageSchema RESPONSE = MessageSchema.of("AddPartitionsToTxnResponse", "0-5", "3+",
            field("throttle_time_ms", INT32),
            field("error_code", INT16).versions("4+"),
            array("results_by_transaction", RESULT).versions("4+"),
            array("results_by_topic_v3_and_below", TOPIC_RESULT).versions("0-3"));

    private AddPartitionsToTxnMessages() {
    }
}
