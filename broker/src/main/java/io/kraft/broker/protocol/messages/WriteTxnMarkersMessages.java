package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BOOL;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** WriteTxnMarkers (key 27) request and response, v1 (flexible); broker-to-broker. */
public final class WriteTxnMarkersMessages {

    static final StructSchema MARKER_TOPIC = StructSchema.of("WritableTxnMarkerTopic",
            field("name", STRING),
            array("partition_indexes", INT32));

    static final StructSchema MARKER = StructSchema.of("WritableTxnMarker",
            field("producer_id", INT64),
            field("producer_epoch", INT16),
            field("transaction_result", BOOL),
            array("topics", MARKER_TOPIC),
            field("coordinator_epoch", INT32));

    public static final MessageSchema REQUEST = MessageSchema.of("WriteTxnMarkersRequest", "1", "1+",
            array("markers", MARKER));

    static final StructSchema PARTITION_RESULT = StructSchema.of("WritableTxnMarkerPartitionResult",
            field("partition_index", INT32),
            field("error_code", INT16));

    static final StructSchema TOPIC_RESULT = StructSchema.of("WritableTxnMarkerTopicResult",
            field("name", STRING),
            array("partitions", PARTITION_RESULT));

    static final StructSchema MARKER_RESULT = StructSchema.of("WritableTxnMarkerResult",
            field("producer_id", INT64),
            array("topics", TOPIC_RESULT));

    public static final MessageSchema RESPONSE = MessageSchema.of("WriteTxnMarkersResponse", "1", "1+",
            array("markers", MARKER_RESULT));

    private WriteTxnMarkersMessages() {
    }
}
