package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;
import static io.kraft.broker.protocol.schema.PrimitiveType.UUID;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** DeleteTopics (key 20) request and response, v1-6; flexible from v4; deletion by topic id from v6. */
public final class DeleteTopicsMessages {

    static final StructSchema TOPIC_STATE = StructSchema.of("DeleteTopicState",
            field("name", STRING).nullable("6+").defaultNull(),
            field("topic_id", UUID));

    public static final MessageSchema REQUEST = MessageSchema.of("DeleteTopicsRequest", "1-6", "4+",
            array("topics", TOPIC_STATE).versions("6+"),
            array("topic_names", STRING).versions("0-5"),
            field("timeout_ms", INT32));

    static final StructSchema RESULT = StructSchema.of("DeletableTopicResult",
            field("name", STRING).nullable("6+"),
            field("topic_id", UUID).versions("6+"),
            field("error_code", INT16),
            field("error_message", STRING).versions("5+").nullable("5+").defaultNull());

    public static final MessageSchema RESPONSE = MessageSchema.of("DeleteTopicsResponse", "1-6", "4+",
            field("throttle_time_ms", INT32).versions("1+"),
            array("responses", RESULT));

    private DeleteTopicsMessages() {
    }
}
