package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;

/** AddOffsetsToTxn (key 25) request and response, v0-4; flexible from v3. */
public final class AddOffsetsToTxnMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("AddOffsetsToTxnRequest", "0-4", "3+",
            field("transactional_id", STRING),
            field("producer_id", INT64),
            field("producer_epoch", INT16),
            field("group_id", STRING));

    public static final MessageSchema RESPONSE = MessageSchema.of("AddOffsetsToTxnResponse", "0-4", "3+",
            field("throttle_time_ms", INT32),
            field("error_code", INT16));

    private AddOffsetsToTxnMessages() {
    }
}
