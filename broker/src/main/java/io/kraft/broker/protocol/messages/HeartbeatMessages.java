package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;

/** Heartbeat (key 12) request and response, v0-4; flexible from v4. */
public final class HeartbeatMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("HeartbeatRequest", "0-4", "4+",
            field("group_id", STRING),
            field("generation_id", INT32),
            field("member_id", STRING),
            field("group_instance_id", STRING).versions("3+").nullable("3+").defaultNull());

    public static final MessageSchema RESPONSE = MessageSchema.of("HeartbeatResponse", "0-4", "4+",
            field("throttle_time_ms", INT32).versions("1+"),
            field("error_code", INT16));

    private HeartbeatMessages() {
    }
}
