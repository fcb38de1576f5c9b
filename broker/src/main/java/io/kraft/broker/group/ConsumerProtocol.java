package io.kraft.broker.group;

import io.kraft.broker.protocol.message.ConsumerProtocolSubscription;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the topics out of a member's "consumer" protocol subscription (the bytes the Java consumer sends in
 * JoinGroup: an int16 version, then the {@code ConsumerProtocolSubscription} data spec at that version), so the
 * coordinator knows which topics a group is subscribed to (OffsetDelete, offset expiry). Later versions only
 * append fields, so a newer subscription is read by the newest layout known here.
 */
final class ConsumerProtocol {
    /** The protocol type of groups made of Kafka consumers. */
    static final String PROTOCOL_TYPE = "consumer";

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
        short readAs = (short) Math.min(version, ConsumerProtocolSubscription.HIGHEST_SUPPORTED_VERSION);
        try {
            return Optional.of(Set.copyOf(ConsumerProtocolSubscription.parse(in, readAs).topics()));
        } catch (RuntimeException e) {
            // A client's bytes: whatever the reader throws (a length past the end, a null where none may be)
            // means they are no subscription this coordinator can use.
            return Optional.empty();
        }
    }
}
