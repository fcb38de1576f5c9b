package io.kraft.broker.group.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kraft.broker.group.consumer.ConsumerGroupMember.ClassicMetadata;
import io.kraft.broker.group.consumer.ConsumerGroupMember.ClassicProtocol;
import io.kraft.broker.group.consumer.ConsumerGroupMember.Subscription;
import io.kraft.broker.protocol.message.ConsumerGroupMemberMetadataValue;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsumerGroupRecordCodecTest {
    private static ConsumerGroupRecord roundTrip(ConsumerGroupRecord record) {
        ByteBuffer key = ConsumerGroupRecordCodec.encodeKey(record);
        short keyVersion = key.getShort();
        return ConsumerGroupRecordCodec.decode(keyVersion, key, ConsumerGroupRecordCodec.encodeValue(record));
    }

    @Test
    void aClassicMembersSessionTimeoutAndProtocolsSurviveTheMemberRecord() {
        Subscription classic = new Subscription("i-1", null, "client", "/10.0.0.1", List.of("orders"), null, null,
                300_000, new ClassicMetadata(45_000, List.of(new ClassicProtocol("range", new byte[] {0, 1, 2}),
                new ClassicProtocol("cooperative-sticky", new byte[] {3}))));
        ConsumerGroupRecord record = new ConsumerGroupRecord.MemberMetadata("g", "m", classic);
        assertEquals(record, roundTrip(record));
    }

    @Test
    void aConsumerProtocolMemberHasNoClassicMetadataAndItsRecordKeepsTheOldBytes() {
        Subscription modern = new Subscription(null, "rack-a", "client", "/10.0.0.1", List.of("orders"), null,
                "uniform", 300_000, null);
        ConsumerGroupRecord record = new ConsumerGroupRecord.MemberMetadata("g", "m", modern);
        ConsumerGroupRecord.MemberMetadata read = (ConsumerGroupRecord.MemberMetadata) roundTrip(record);
        assertEquals(record, read);
        assertNull(read.value().classic());
        // The classic fields are a tagged field: a consumer member's value is what it was before they existed.
        ByteBuffer value = ConsumerGroupRecordCodec.encodeValue(record);
        value.getShort();
        ConsumerGroupMemberMetadataValue parsed = ConsumerGroupMemberMetadataValue.parse(value, (short) 0);
        assertEquals(-1, parsed.classicMemberMetadata().sessionTimeoutMs());
        assertEquals(0, value.remaining());
    }
}
