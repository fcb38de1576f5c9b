package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT8;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** DescribeAcls (key 29) request and response, v1-3; flexible from v2. */
public final class DescribeAclsMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("DescribeAclsRequest", "1-3", "2+",
            field("resource_type_filter", INT8),
            field("resource_name_filter", STRING).nullable("0+"),
            field("pattern_type_filter", INT8).versions("1+").defaultValue(3),
            field("principal_filter", STRING).nullable("0+"),
            field("host_filter", STRING).nullable("0+"),
            field("operation", INT8),
            field("permission_type", INT8));

    static final StructSchema ACL = StructSchema.of("AclDescription",
            field("principal", STRING),
            field("host", STRING),
            field("operation", INT8),
            field("permission_type", INT8));

    static final StructSchema RESOURCE = StructSchema.of("DescribeAclsResource",
            field("resource_type", INT8),
            field("resource_name", STRING),
            field("pattern_type", INT8).versions("1+").defaultValue(3),
            array("acls", ACL));

    public static final MessageSchema RESPONSE = MessageSchema.of("DescribeAclsResponse", "1-3", "2+",
            field("throttle_time_ms", INT32),
            field("error_code", INT16),
            field("error_message", STRING).nullable("0+"),
            array("resources", RESOURCE));

    private DescribeAclsMessages() {
    }
}
