package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BOOL;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;

/** EndTxn (key 26) request and response, v0-5; flexible from v3; v5 returns the bumped epoch (KIP-890). */
public final class EndTxnMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("EndTxnRequest", "0-5", "3+",
            field("transactional_id", STRING),
            field("producer_id", INT64),
            field("producer_epoch", INT16),
            field("committed", BOOL));

    public static final MessageSchema RESPONSE = MessageSchema.of("EndTxnResponse", "0-5", "3+",
            field("throttle_time_ms", INT32),
            field("error_code", INT16),
            field("producer_id", INT64).versions("5+").defaultValue(-1L),
            field("producer_epoch", INT16).versions("5+").defaultValue(-1));

    private EndTxnMessages() {
    }
}
