package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.FieldSpec.struct;
import static io.kraft.broker.protocol.schema.PrimitiveType.BOOL;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT8;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;
import static io.kraft.broker.protocol.schema.PrimitiveType.UUID;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** ConsumerGroupDescribe (key 69) request and response, v0-1 (flexible; KIP-848). */
public final class ConsumerGroupDescribeMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("ConsumerGroupDescribeRequest", "0-1", "0+",
            array("group_ids", STRING),
            field("include_authorized_operations", BOOL));

    static final StructSchema TOPIC_PARTITIONS = StructSchema.of("TopicPartitions",
            field("topic_id", UUID),
            field("topic_name", STRING),
            array("partitions", INT32));

    static final StructSchema ASSIGNMENT = StructSchema.of("Assignment",
            array("topic_partitions", TOPIC_PARTITIONS));

    static final StructSchema MEMBER = StructSchema.of("Member",
            field("member_id", STRING),
            field("instance_id", STRING).nullable("0+").defaultNull(),
            field("rack_id", STRING).nullable("0+").defaultNull(),
            field("member_epoch", INT32),
            field("client_id", STRING),
            field("client_host", STRING),
            array("subscribed_topic_names", STRING),
            field("subscribed_topic_regex", STRING).nullable("0+").defaultNull(),
            struct("assignment", ASSIGNMENT),
            struct("target_assignment", ASSIGNMENT),
            field("member_type", INT8).versions("1+").defaultValue(-1));

    static final StructSchema GROUP = StructSchema.of("DescribedGroup",
            field("error_code", INT16),
            field("error_message", STRING).nullable("0+").defaultNull(),
            field("group_id", STRING),
            field("group_state", STRING),
            field("group_epoch", INT32),
            field("assignment_epoch", INT32),
            field("assignor_name", STRING),
            array("members", MEMBER),
            field("authorized_operations", INT32).defaultValue(Integer.MIN_VALUE));

    public static final MessageSchema RESPONSE = MessageSchema.of("ConsumerGroupDescribeResponse", "0-1", "0+",
            field("throttle_time_ms", INT32),
            array("groups", GROUP));

    private ConsumerGroupDescribeMessages() {
    }
}
