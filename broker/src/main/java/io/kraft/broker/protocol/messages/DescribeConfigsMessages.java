package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BOOL;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT8;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** DescribeConfigs (key 32) request and response, v1-4; flexible from v4. */
public final class DescribeConfigsMessages {

    static final StructSchema RESOURCE = StructSchema.of("DescribeConfigsResource",
            field("resource_type", INT8),
            field("resource_name", STRING),
            array("configuration_keys", STRING).nullable("0+"));

    public static final MessageSchema REQUEST = MessageSchema.of("DescribeConfigsRequest", "1-4", "4+",
            array("resources", RESOURCE),
            field("include_synonyms", BOOL).versions("1+"),
            field("include_documentation", BOOL).versions("3+"));

    static final StructSchema SYNONYM = StructSchema.of("DescribeConfigsSynonym",
            field("name", STRING),
            field("value", STRING).nullable("0+"),
            field("source", INT8));

    static final StructSchema CONFIG = StructSchema.of("DescribeConfigsResourceResult",
            field("name", STRING),
            field("value", STRING).nullable("0+"),
            field("read_only", BOOL),
            field("config_source", INT8).versions("1+").defaultValue(-1),
            field("is_sensitive", BOOL),
            array("synonyms", SYNONYM).versions("1+"),
            field("config_type", INT8).versions("3+"),
            field("documentation", STRING).versions("3+").nullable("0+"));

    static final StructSchema RESULT = StructSchema.of("DescribeConfigsResult",
            field("error_code", INT16),
            field("error_message", STRING).nullable("0+"),
            field("resource_type", INT8),
            field("resource_name", STRING),
            array("configs", CONFIG));

    public static final MessageSchema RESPONSE = MessageSchema.of("DescribeConfigsResponse", "1-4", "4+",
            field("throttle_time_ms", INT32),
            array("results", RESULT));

    private DescribeConfigsMessages() {
    }
}
