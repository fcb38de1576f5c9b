package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.FieldSpec.struct;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;
import static io.kraft.broker.protocol.schema.PrimitiveType.UUID;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** ConsumerGroupHeartbeat (key 68) request and response, v0-1 (flexible; KIP-848); v1 adds the subscription regex. */
public final class ConsumerGroupHeartbeatMessages {

    static final StructSchema TOPIC_PARTITIONS = StructSchema.of("TopicPartitions",
            field("topic_id", UUID),
            array("partitions", INT32));

    public static final MessageSchema REQUEST = MessageSchema.of("ConsumerGroupHeartbeatRequest", "0-1", "0+",
            field("group_id", STRING),
            field("member_id", STRING),
            field("member_epoch", INT32),
            field("instance_id", STRING).nullable("0+").defaultNull(),
            field("rack_id", STRING).nullable("0+").defaultNull(),
            field("rebalance_timeout_ms", INT32).defaultValue(-1),
            array("subscribed_topic_names", STRING).nullable("0+").defaultNull(),
            field("subscribed_topic_regex", STRING).versions("1+").nullable("1+").defaultNull(),
            field("server_assignor", STRING).nullable("0+").defaultNull(),
            array("topic_partitions", TOPIC_PARTITIONS).nullable("0+").defaultNull());

    static final StructSchema ASSIGNMENT = StructSchema.of("Assignment",
            array("topic_partitions", TOPIC_PARTITIONS));

    public static final MessageSchema RESPONSE = MessageSchema.of("ConsumerGroupHeartbeatResponse", "0-1", "0+",
            field("throttle_time_ms", INT32),
            field("error_code", INT16),
            field("error_message", STRING).nullable("0+").defaultNull(),
            field("member_id", STRING).nullable("0+").defaultNull(),
            field("member_epoch", INT32),
            field("heartbeat_interval_ms", INT32),
            struct("assignment", ASSIGNMENT).nullable("0+").defaultNull());

    private ConsumerGroupHeartbeatMessages() {
    }
}
