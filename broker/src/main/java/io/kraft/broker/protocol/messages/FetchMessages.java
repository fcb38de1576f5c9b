package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.FieldSpec.struct;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT8;
import static io.kraft.broker.protocol.schema.PrimitiveType.RECORDS;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;
import static io.kraft.broker.protocol.schema.PrimitiveType.UUID;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** Fetch (key 1) request and response, v4-17; flexible from v12; topic ids from v13; replica state from v15 (KIP-903). */
public final class FetchMessages {

    static final StructSchema REPLICA_STATE = StructSchema.of("ReplicaState",
            field("replica_id", INT32).defaultValue(-1),
            field("replica_epoch", INT64).defaultValue(-1L));

    static final StructSchema FETCH_PARTITION = StructSchema.of("FetchPartition",
            field("partition", INT32),
            field("current_leader_epoch", INT32).versions("9+").defaultValue(-1),
            field("fetch_offset", INT64),
            field("last_fetched_epoch", INT32).versions("12+").defaultValue(-1),
            field("log_start_offset", INT64).versions("5+").defaultValue(-1L),
            field("partition_max_bytes", INT32),
            field("replica_directory_id", UUID).versions("17+").tagged(0));

    static final StructSchema FETCH_TOPIC = StructSchema.of("FetchTopic",
            field("topic", STRING).versions("0-12"),
            field("topic_id", UUID).versions("13+"),
            array("partitions", FETCH_PARTITION));

    static final StructSchema FORGOTTEN_TOPIC = StructSchema.of("ForgottenTopic",
            field("topic", STRING).versions("7-12"),
            field("topic_id", UUID).versions("13+"),
            array("partitions", INT32).versions("7+"));

    public static final MessageSchema REQUEST = MessageSchema.of("FetchRequest", "4-17", "12+",
            field("cluster_id", STRING).versions("12+").nullable("12+").defaultNull().tagged(0),
            field("replica_id", INT32).versions("0-14").defaultValue(-1),
            struct("replica_state", REPLICA_STATE).versions("15+").tagged(1),
            field("max_wait_ms", INT32),
            field("min_bytes", INT32),
            field("max_bytes", INT32).versions("3+").defaultValue(Integer.MAX_VALUE),
            field("isolation_level", INT8).versions("4+"),
            field("session_id", INT32).versions("7+"),
            field("session_epoch", INT32).versions("7+").defaultValue(-1),
            array("topics", FETCH_TOPIC),
            array("forgotten_topics_data", FORGOTTEN_TOPIC).versions("7+"),
            field("rack_id", STRING).versions("11+"));

    static final StructSchema EPOCH_END_OFFSET = StructSchema.of("EpochEndOffset",
            field("epoch", INT32).defaultValue(-1),
            field("end_offset", INT64).defaultValue(-1L));

    static final StructSchema LEADER_ID_AND_EPOCH = StructSchema.of("LeaderIdAndEpoch",
            field("leader_id", INT32).defaultValue(-1),
            field("leader_epoch", INT32).defaultValue(-1));

    static final StructSchema SNAPSHOT_ID = StructSchema.of("SnapshotId",
            field("end_offset", INT64).defaultValue(-1L),
            field("epoch", INT32).defaultValue(-1));

    static final StructSchema ABORTED_TRANSACTION = StructSchema.of("AbortedTransaction",
            field("producer_id", INT64),
            field("first_offset", INT64));

    static final StructSchema PARTITION_DATA = StructSchema.of("PartitionData",
            field("partition_index", INT32),
            field("error_code", INT16),
            field("high_watermark", INT64),
            field("last_stable_offset", INT64).versions("4+").defaultValue(-1L),
            field("log_start_offset", INT64).versions("5+").defaultValue(-1L),
            struct("diverging_epoch", EPOCH_END_OFFSET).versions("12+").tagged(0),
            struct("current_leader", LEADER_ID_AND_EPOCH).versions("12+").tagged(1),
            struct("snapshot_id", SNAPSHOT_ID).versions("12+").tagged(2),
            array("aborted_transactions", ABORTED_TRANSACTION).versions("4+").nullable("4+").defaultNull(),
            field("preferred_read_replica", INT32).versions("11+").defaultValue(-1),
            field("records", RECORDS).nullable("0+"));

    static final StructSchema TOPIC_RESPONSE = StructSchema.of("FetchableTopicResponse",
            field("topic", STRING).versions("0-12"),
            field("topic_id", UUID).versions("13+"),
            array("partitions", PARTITION_DATA));

    static final StructSchema NODE_ENDPOINT = StructSchema.of("NodeEndpoint",
            field("node_id", INT32),
            field("host", STRING),
            field("port", INT32),
            field("rack", STRING).nullable("0+").defaultNull());

    public static final MessageSchema RESPONSE = MessageSchema.of("FetchResponse", "4-17", "12+",
            field("throttle_time_ms", INT32).versions("1+"),
            field("error_code", INT16).versions("7+"),
            field("session_id", INT32).versions("7+"),
            array("responses", TOPIC_RESPONSE),
            array("node_endpoints", NODE_ENDPOINT).versions("16+").tagged(0));

    private FetchMessages() {
    }
}
