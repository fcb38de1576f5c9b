package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;

/** InitProducerId (key 22) request and response, v0-5; flexible from v2; epoch bump recovery from v3 (KIP-360). */
public final class InitProducerIdMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("InitProducerIdRequest", "0-5", "2+",
            field("transactional_id", STRING).nullable("0+"),
            field("transaction_timeout_ms", INT32),
            field("producer_id", INT64).versions("3+").defaultValue(-1L),
            field("producer_epoch", INT16).versions("3+").defaultValue(-1));

    public static final MessageSchema RESPONSE = MessageSchema.of("InitProducerIdResponse", "0-5", "2+",
            field("throttle_time_ms", INT32),
            field("error_code", INT16),
            field("producer_id", INT64).defaultValue(-1L),
            field("producer_epoch", INT16));

    private InitProducerIdMessages() {
    }
}
