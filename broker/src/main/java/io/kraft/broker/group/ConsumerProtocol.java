package io.kraft.broker.group;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BYTES;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MalformedMessageException;
import io.kraft.broker.protocol.schema.MessageReader;
import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the topics out of a member's "consumer" protocol subscription (the bytes the Java consumer sends in
 * JoinGroup), so the coordinator knows which topics a group is subscribed to (OffsetDelete, offset expiry).
 * Later versions only append fields, so a newer subscription is read by the newest layout known here.
 */
final class ConsumerProtocol {
    /** The protocol type of groups made of Kafka consumers. */
    static final String PROTOCOL_TYPE = "consumer";

    private static final StructSchema TOPIC_PARTITION = StructSchema.of("TopicPartition",
            field("topic", STRING),
            array("partitions", INT32));

    private static final MessageSchema SUBSCRIPTION = MessageSchema.of("ConsumerProtocolSubscription", "0-3", "none",
            array("topics", STRING),
            field("user_data", BYTES).nullable("0+").defaultNull(),
            array("owned_partitions", TOPIC_PARTITION).versions("1+"),
            field("generation_id", INT32).versions("2+").defaultValue(-1),
            field("rack_id", STRING).versions("3+").nullable("3+").defaultNull());

    private ConsumerProtocol() {
    }

    /** The subscribed topics, or empty when the bytes are not a readable subscription. */
    static Optional<Set<String>> subscribedTopics(byte[] subscription) {
        if (subscription == null || subscription.length < 2) {
            return Optional.empty();
        }
        ByteBuffer in = ByteBuffer.wrap(subscription);
        short version = in.getShort();
        if (version < 0) {
            return Optional.empty();
        }
        short readAs = (short) Math.min(version, SUBSCRIPTION.validVersions().highest());
        try {
            List<String> topics = MessageReader.read(SUBSCRIPTION, readAs, in).getList("topics");
            return Optional.of(Set.copyOf(topics));
        } catch (MalformedMessageException | BufferUnderflowException | IllegalArgumentException | NullPointerException e) {
            return Optional.empty();
        }
    }
}
