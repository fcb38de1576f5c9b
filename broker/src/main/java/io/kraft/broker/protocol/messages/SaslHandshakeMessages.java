package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;

/** SaslHandshake (key 17) request and response, v0-1; never flexible. */
public final class SaslHandshakeMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("SaslHandshakeRequest", "0-1", "none",
            field("mechanism", STRING));

    public static final MessageSchema RESPONSE = MessageSchema.of("SaslHandshakeResponse", "0-1", "none",
            field("error_code", INT16),
            array("mechanisms", STRING));

    private SaslHandshakeMessages() {
    }
}
