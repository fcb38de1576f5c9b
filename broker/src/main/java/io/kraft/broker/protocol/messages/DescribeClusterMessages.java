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

/** DescribeCluster (key 60) request and response, v0-2; flexible in every version (KIP-700). */
public final class DescribeClusterMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("DescribeClusterRequest", "0-2", "0+",
            field("include_cluster_authorized_operations", BOOL),
            field("endpoint_type", INT8).versions("1+").defaultValue(1),
            field("include_fenced_brokers", BOOL).versions("2+"));

    static final StructSchema BROKER = StructSchema.of("DescribeClusterBroker",
            field("broker_id", INT32),
            field("host", STRING),
            field("port", INT32),
            field("rack", STRING).nullable("0+").defaultNull(),
            field("is_fenced", BOOL).versions("2+"));

    public static final MessageSchema RESPONSE = MessageSchema.of("DescribeClusterResponse", "0-2", "0+",
            field("throttle_time_ms", INT32),
            field("error_code", INT16),
            field("error_message", STRING).nullable("0+").defaultNull(),
            field("endpoint_type", INT8).versions("1+").defaultValue(1),
            field("cluster_id", STRING),
            field("controller_id", INT32).defaultValue(-1),
            array("brokers", BROKER),
            field("cluster_authorized_operations", INT32).defaultValue(Integer.MIN_VALUE));

    private DescribeClusterMessages() {
    }
}
