package io.kraft.broker.network;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BYTES;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.RequestHeader;
import io.kraft.broker.protocol.schema.MalformedMessageException;
import io.kraft.broker.protocol.schema.MessageReader;
import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.MessageWriter;
import io.kraft.broker.protocol.schema.StructSchema;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.storage.errors.Errors;
import java.nio.ByteBuffer;

/**
 * Answers Produce v0-2, which the broker advertises (old librdkafka enables compression only when the
 * range contains 0) but does not serve: every partition of the request gets Errors.UNSUPPORTED_VERSION.code() in a
 * response of the request's version, so the client fails the send instead of seeing a dropped connection.
 */
final class LegacyProduceRejection {
    private static final StructSchema PARTITION = StructSchema.of("LegacyPartitionProduceData",
            field("index", INT32),
            field("records", BYTES).nullable("0+"));
    private static final StructSchema TOPIC = StructSchema.of("LegacyTopicProduceData",
            field("name", STRING),
            array("partition_data", PARTITION));
    /** Produce v0-2 request: the v3 layout without transactional_id (message sets are kept as opaque bytes). */
    static final MessageSchema REQUEST = MessageSchema.of("LegacyProduceRequest", "0-2", "none",
            field("acks", INT16),
            field("timeout_ms", INT32),
            array("topic_data", TOPIC));

    private static final StructSchema PARTITION_RESPONSE = StructSchema.of("LegacyPartitionProduceResponse",
            field("index", INT32),
            field("error_code", INT16),
            field("base_offset", INT64),
            field("log_append_time_ms", INT64).versions("2+").defaultValue(-1L));
    private static final StructSchema TOPIC_RESPONSE = StructSchema.of("LegacyTopicProduceResponse",
            field("name", STRING),
            array("partition_responses", PARTITION_RESPONSE));
    static final MessageSchema RESPONSE = MessageSchema.of("LegacyProduceResponse", "0-2", "none",
            array("responses", TOPIC_RESPONSE),
            field("throttle_time_ms", INT32).versions("1+"));

    private LegacyProduceRejection() {
    }

    /**
     * The complete response frame (int32 size, response header v0, body), or null when the request body
     * cannot be read (the caller closes the connection).
     */
    static ByteBuffer responseFrame(ByteBuffer requestFrame, short version) {
        Struct request;
        int correlationId;
        try {
            ByteBuffer in = requestFrame.duplicate();
            correlationId = RequestHeader.read(in, (short) 1).correlationId();
            request = MessageReader.read(REQUEST, version, in);
        } catch (MalformedMessageException e) {
            return null;
        }
        Struct response = RESPONSE.newStruct();
        for (Struct topic : request.getStructs("topic_data")) {
            Struct topicOut = response.addStruct("responses");
            topicOut.set("name", topic.getString("name"));
            for (Struct partition : topic.getStructs("partition_data")) {
                Struct out = topicOut.addStruct("partition_responses");
                out.set("index", partition.getInt("index"));
                out.set("error_code", Errors.UNSUPPORTED_VERSION.code());
                out.set("base_offset", -1L);
            }
        }
        int bodySize = MessageWriter.sizeOf(RESPONSE, response, version);
        ByteBuffer frame = ByteBuffer.allocate(4 + 4 + bodySize);
        frame.putInt(4 + bodySize).putInt(correlationId);
        MessageWriter.write(RESPONSE, response, version, frame);
        return frame.flip();
    }
}
