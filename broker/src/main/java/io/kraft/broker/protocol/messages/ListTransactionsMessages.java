package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** ListTransactions (key 66) request and response, v0 (flexible; KIP-664). */
public final class ListTransactionsMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("ListTransactionsRequest", "0", "0+",
            array("state_filters", STRING),
            array("producer_id_filters", INT64));

    static final StructSchema STATE = StructSchema.of("TransactionState",
            field("transactional_id", STRING),
            field("producer_id", INT64),
            field("transaction_state", STRING));

    public static final MessageSchema RESPONSE = MessageSchema.of("ListTransactionsResponse", "0", "0+",
            field("throttle_time_ms", INT32),
            field("error_code", INT16),
            array("unknown_state_filters", STRING),
            array("transaction_states", STATE));

    private ListTransactionsMessages() {
    }
}
