package io.kraft.broker.group;

import io.kraft.broker.protocol.message.ConsumerProtocolAssignment;
import io.kraft.broker.protocol.message.ConsumerProtocolSubscription;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * Reads the topics out of a member's "consumer" protocol subscription (the bytes the Java consumer sends in
 * JoinGroup: an int16 version, then the {@code ConsumerProtocolSubscription} data spec at that version), so the
 * coordinator knows which topics a group is subscribed to (OffsetDelete, offset expiry), and the partitions out of a
 * member's assignment (converting a classic group to the consumer protocol). Later versions only
 * append fields, so a newer subscription is read by the newest layout known here.
 */
final class ConsumerProtocol {
    /** The protocol type of groups made of Kafka consumers. */
    static final String PROTOCOL_TYPE = "consumer";

    private ConsumerProtocol() {
    }

    /** The subscribed topics, or empty when the bytes are not a readable subscription. */
    static Optional<Set<String>> subscribedTopics(byte[] subscription) {
        return read(subscription, ConsumerProtocolSubscription.HIGHEST_SUPPORTED_VERSION,
                (in, version) -> Set.copyOf(ConsumerProtocolSubscription.parse(in, version).topics()));
    }

    /** The assigned partitions by topic name, or empty when the bytes are not a readable assignment. */
    static Optional<Map<String, SortedSet<Integer>>> assignedPartitions(byte[] assignment) {
        return read(assignment, ConsumerProtocolAssignment.HIGHEST_SUPPORTED_VERSION, (in, version) -> {
            Map<String, SortedSet<Integer>> byTopic = new TreeMap<>();
            ConsumerProtocolAssignment.parse(in, version).assignedPartitions().forEach(tp -> byTopic
                    .computeIfAbsent(tp.topic(), t -> new TreeSet<>()).addAll(tp.partitions()));
            return byTopic;
        });
    }

    /**
     * The partitions a member says it owns in its subscription (version 1+, KIP-429), by topic name; an older or
     * unreadable subscription owns nothing the coordinator can see.
     */
    static Map<String, SortedSet<Integer>> ownedPartitions(byte[] subscription) {
        return read(subscription, ConsumerProtocolSubscription.HIGHEST_SUPPORTED_VERSION, (in, version) -> {
            Map<String, SortedSet<Integer>> byTopic = new TreeMap<>();
            ConsumerProtocolSubscription.parse(in, version).ownedPartitions().forEach(tp -> byTopic
                    .computeIfAbsent(tp.topic(), t -> new TreeSet<>()).addAll(tp.partitions()));
            return byTopic;
        }).orElse(Map.of());
    }

    /** A JoinGroup subscription (version 0, no user data) to these topics. */
    static byte[] subscription(List<String> topics) {
        ConsumerProtocolSubscription subscription = new ConsumerProtocolSubscription();
        subscription.topics().addAll(topics);
        return bytes(subscription.toVersionedBuffer((short) 0));
    }

    /** A SyncGroup assignment (version 0, no user data) of these partitions by topic name. */
    static byte[] assignment(Map<String, ? extends Collection<Integer>> partitions) {
        ConsumerProtocolAssignment assignment = new ConsumerProtocolAssignment();
        partitions.forEach((topic, ids) -> assignment.assignedPartitions().add(
                new ConsumerProtocolAssignment.TopicPartition().setTopic(topic).setPartitions(List.copyOf(ids))));
        return bytes(assignment.toVersionedBuffer((short) 0));
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    private static <T> Optional<T> read(byte[] bytes, short highest, BiFunction<ByteBuffer, Short, T> parse) {
        if (bytes == null || bytes.length < 2) {
            return Optional.empty();
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        short version = in.getShort();
        if (version < 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(parse.apply(in, (short) Math.min(version, highest)));
        } catch (RuntimeException e) {
            // A client's bytes: whatever the reader throws (a length past the end, a null where none may be)
            // means they are nothing this coordinator can use.
            return Optional.empty();
        }
    }
}
