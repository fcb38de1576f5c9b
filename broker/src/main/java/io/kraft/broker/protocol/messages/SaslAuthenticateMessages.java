package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BYTES;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;

/** SaslAuthenticate (key 36) request and response, v0-2; flexible from v2 (KIP-152, KIP-368). */
public final class SaslAuthenticateMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("SaslAuthenticateRequest", "0-2", "2+",
            field("auth_bytes", BYTES));

    public static final MessageSchema RESPONSE = MessageSchema.of("SaslAuthenticateResponse", "0-2", "2+",
            field("error_code", INT16),
            field("error_message", STRING).nullable("0+"),
            field("auth_bytes", BYTES),
            field("session_lifetime_ms", INT64).versions("1+"));

    private SaslAuthenticateMessages() {
    }
}
