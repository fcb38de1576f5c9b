package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT8;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** DeleteAcls (key 31) request and response, v1-3; flexible from v2. */
public final class DeleteAclsMessages {

    static final StructSchema FILTER = StructSchema.of("DeleteAclsFilter",
            field("resource_type_filter", INT8),
            field("resource_name_filter", STRING).nullable("0+"),
            field("pattern_type_filter", INT8).versions("1+").defaultValue(3),
            field("principal_filter", STRING).nullable("0+"),
            field("host_filter", STRING).nullable("0+"),
            field("operation", INT8),
            field("permission_type", INT8));

    public static final MessageSchema REQUEST = MessageSchema.of("DeleteAclsRequest", "1-3", "2+",
            array("filters", FILTER));

    static final StructSchema MATCHING_ACL = StructSchema.of("DeleteAclsMatchingAcl",
            field("error_code", INT16),
            field("error_message", STRING).nullable("0+"),
            field("resource_type", INT8),
            field("resource_name", STRING),
            field("pattern_type", INT8).versions("1+").defaultValue(3),
            field("principal", STRING),
            field("host", STRING),
            field("operation", INT8),
            field("permission_type", INT8));

    static final StructSchema FILTER_RESULT = StructSchema.of("DeleteAclsFilterResult",
            field("error_code", INT16),
            field("error_message", STRING).nullable("0+"),
            array("matching_acls", MATCHING_ACL));

    public static final MessageSchema RESPONSE = MessageSchema.of("DeleteAclsResponse", "1-3", "2+",
            field("throttle_time_ms", INT32),
            array("filter_results", FILTER_RESULT));

    private DeleteAclsMessages() {
    }
}
