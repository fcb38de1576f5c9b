package io.kraft.broker.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.protocol.message.ConsumerProtocolAssignment;
import io.kraft.broker.protocol.message.ConsumerProtocolSubscription;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The consumer protocol's member metadata, judged by kafka-clients' consumer (which writes the subscriptions the
 * coordinator reads and reads the assignments leaders hand in): our data-spec classes write its bytes at every
 * version, and {@link ConsumerProtocol} reads the topics out of whatever version it sends.
 */
class ConsumerProtocolTest {
    /** In name order, as the consumer sends them. */
    private static final List<String> TOPICS = List.of("audit", "orders", "payments");
    private static final ByteBuffer USER_DATA = ByteBuffer.wrap("sticky".getBytes(StandardCharsets.UTF_8));
    private static final List<TopicPartition> OWNED = List.of(new TopicPartition("orders", 0),
            new TopicPartition("orders", 2), new TopicPartition("payments", 1));

    private static ConsumerPartitionAssignor.Subscription kafkaSubscription() {
        return new ConsumerPartitionAssignor.Subscription(TOPICS, USER_DATA.duplicate(), OWNED, 12, Optional.of("rack-a"));
    }

    private static ConsumerProtocolSubscription ourSubscription() {
        ConsumerProtocolSubscription subscription = new ConsumerProtocolSubscription()
                .setTopics(new ArrayList<>(TOPICS))
                .setUserData(USER_DATA.duplicate())
                .setGenerationId(12)
                .setRackId("rack-a");
        subscription.ownedPartitions().add(new ConsumerProtocolSubscription.TopicPartition()
                .setTopic("orders").setPartitions(new ArrayList<>(List.of(0, 2))));
        subscription.ownedPartitions().add(new ConsumerProtocolSubscription.TopicPartition()
                .setTopic("payments").setPartitions(new ArrayList<>(List.of(1))));
        return subscription;
    }

    @Test
    void subscriptionsAreTheConsumersBytesAtEveryVersion() {
        for (short version = ConsumerProtocolSubscription.LOWEST_SUPPORTED_VERSION;
             version <= ConsumerProtocolSubscription.HIGHEST_SUPPORTED_VERSION; version++) {
            ByteBuffer kafka = org.apache.kafka.clients.consumer.internals.ConsumerProtocol
                    .serializeSubscription(kafkaSubscription(), version);
            ByteBuffer ours = ourSubscription().toVersionedBuffer(version);
            assertEquals(hex(kafka), hex(ours), "v" + version + " subscription bytes");

            assertEquals(Optional.of(Set.copyOf(TOPICS)), ConsumerProtocol.subscribedTopics(array(kafka)), "v" + version);
            ConsumerProtocolSubscription read = ConsumerProtocolSubscription.parse(ours.position(2), version);
            assertEquals(TOPICS, read.topics());
            assertEquals(USER_DATA, read.userData());
            assertEquals(version >= 1 ? ourSubscription().ownedPartitions() : List.of(), read.ownedPartitions());
            assertEquals(version >= 2 ? 12 : -1, read.generationId());
            assertEquals(version >= 3 ? "rack-a" : null, read.rackId());
        }
    }

    @Test
    void assignmentsAreTheConsumersBytesAtEveryVersion() {
        for (short version = ConsumerProtocolAssignment.LOWEST_SUPPORTED_VERSION;
             version <= ConsumerProtocolAssignment.HIGHEST_SUPPORTED_VERSION; version++) {
            org.apache.kafka.common.message.ConsumerProtocolAssignment kafkaAssignment =
                    new org.apache.kafka.common.message.ConsumerProtocolAssignment().setUserData(USER_DATA.duplicate());
            kafkaAssignment.assignedPartitions().add(
                    new org.apache.kafka.common.message.ConsumerProtocolAssignment.TopicPartition()
                            .setTopic("orders").setPartitions(List.of(2, 0)));
            kafkaAssignment.assignedPartitions().add(
                    new org.apache.kafka.common.message.ConsumerProtocolAssignment.TopicPartition()
                            .setTopic("audit").setPartitions(List.of(5)));
            ConsumerProtocolAssignment ours = new ConsumerProtocolAssignment().setUserData(USER_DATA.duplicate());
            ours.assignedPartitions().add(new ConsumerProtocolAssignment.TopicPartition()
                    .setTopic("orders").setPartitions(new ArrayList<>(List.of(2, 0))));
            ours.assignedPartitions().add(new ConsumerProtocolAssignment.TopicPartition()
                    .setTopic("audit").setPartitions(new ArrayList<>(List.of(5))));

            ByteBuffer ourBytes = ours.toVersionedBuffer(version);
            assertEquals(hex(org.apache.kafka.clients.consumer.internals.ConsumerProtocol.serializeAssignment(
                    kafkaAssignment, version)), hex(ourBytes), "v" + version + " assignment bytes");
            ConsumerPartitionAssignor.Assignment read = org.apache.kafka.clients.consumer.internals.ConsumerProtocol
                    .deserializeAssignment(ourBytes.duplicate());
            assertEquals(List.of(new TopicPartition("orders", 2), new TopicPartition("orders", 0),
                    new TopicPartition("audit", 5)), read.partitions());
            assertEquals(USER_DATA, read.userData());
            assertEquals(ours, ConsumerProtocolAssignment.parse(ourBytes.position(2), version));
        }
    }

    @Test
    void aSubscriptionNewerThanAnyKnownLayoutIsReadByTheNewest() {
        ByteBuffer v3 = org.apache.kafka.clients.consumer.internals.ConsumerProtocol
                .serializeSubscription(kafkaSubscription(), ConsumerProtocolSubscription.HIGHEST_SUPPORTED_VERSION);
        // a future version appends fields and keeps the ones before
        ByteBuffer future = ByteBuffer.allocate(v3.remaining() + 4).put(v3).putInt(0x7eadbeef).flip();
        future.putShort(0, (short) 9);
        assertEquals(Optional.of(Set.copyOf(TOPICS)), ConsumerProtocol.subscribedTopics(array(future)));
    }

    @Test
    void bytesThatAreNoSubscriptionHaveNoTopics() {
        byte[] v0 = array(org.apache.kafka.clients.consumer.internals.ConsumerProtocol
                .serializeSubscription(kafkaSubscription(), (short) 0));
        assertTrue(ConsumerProtocol.subscribedTopics(null).isEmpty());
        assertTrue(ConsumerProtocol.subscribedTopics(new byte[] {0}).isEmpty(), "half a version");
        assertTrue(ConsumerProtocol.subscribedTopics(new byte[] {(byte) 0xff, (byte) 0xff, 0, 0, 0, 0}).isEmpty(),
                "a negative version");
        assertTrue(ConsumerProtocol.subscribedTopics(java.util.Arrays.copyOf(v0, v0.length - 1)).isEmpty(), "truncated");
        assertTrue(ConsumerProtocol.subscribedTopics(new byte[] {0, 0, (byte) 0xff, (byte) 0xff, (byte) 0xff,
                (byte) 0xff}).isEmpty(), "a null topic list");
        assertEquals(Optional.of(Set.of()), ConsumerProtocol.subscribedTopics(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}),
                "no topics, no user data");
    }

    private static String hex(ByteBuffer buffer) {
        return java.util.HexFormat.of().formatHex(array(buffer));
    }

    private static byte[] array(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
