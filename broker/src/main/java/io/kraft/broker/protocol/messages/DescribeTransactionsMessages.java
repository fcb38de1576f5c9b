package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** DescribeTransactions (key 65) request and response, v0 (flexible; KIP-664). */
public final class DescribeTransactionsMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("DescribeTransactionsRequest", "0", "0+",
            array("transactional_ids", STRING));

    static final StructSchema TOPIC = StructSchema.of("TopicData",
            field("topic", STRING),
            array("partitions", INT32));

    static final StructSchema STATE = StructSchema.of("TransactionState",
            field("error_code", INT16),
            field("transactional_id", STRING),
            field("transaction_state", STRING),
            field("transaction_timeout_ms", INT32),
            field("transaction_start_time_ms", INT64),
            field("producer_id", INT64),
            field("producer_epoch", INT16),
            array("topics", TOPIC));

    public static final MessageSchema RESPONSE = MessageSchema.of("DescribeTransactionsResponse", "0", "0+",
            field("throttle_time_ms", INT32),
            array("transaction_states", STATE));

    private DescribeTransactionsMessages() {
    }
}
