package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT8;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** FindCoordinator (key 10) request and response, v0-6; flexible from v3; batched keys from v4 (KIP-699). */
public final class FindCoordinatorMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("FindCoordinatorRequest", "0-6", "3+",
            field("key", STRING).versions("0-3"),
            field("key_type", INT8).versions("1+"),
            array("coordinator_keys", STRING).versions("4+"));

    static final StructSchema COORDINATOR = StructSchema.of("Coordinator",
            field("key", STRING),
            field("node_id", INT32),
            field("host", STRING),
            field("port", INT32),
            field("error_code", INT16),
            field("error_message", STRING).nullable("4+"));

    public static final MessageSchema RESPONSE = MessageSchema.of("FindCoordinatorResponse", "0-6", "3+",
            field("throttle_time_ms", INT32).versions("1+"),
            field("error_code", INT16).versions("0-3"),
            field("error_message", STRING).versions("1-3").nullable("1-3"),
            field("node_id", INT32).versions("0-3"),
            field("host", STRING).versions("0-3"),
            field("port", INT32).versions("0-3"),
            array("coordinators", COORDINATOR).versions("4+"));

    private FindCoordinatorMessages() {
    }
}
