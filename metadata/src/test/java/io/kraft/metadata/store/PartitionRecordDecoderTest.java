package io.kraft.metadata.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.proto.metadata.PartitionRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The stored partition's encoding both ways: {@link PartitionRecordDecoder} and {@link PartitionRecordEncoder}. */
class PartitionRecordDecoderTest {
    private final PartitionRecordDecoder decoder = new PartitionRecordDecoder();

    @Test
    void decodesWhatTheProtobufParserReadsForEveryField() throws Exception {
        Random random = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            PartitionRecord record = randomRecord(random);
            byte[] bytes = record.toByteArray();
            // A larger buffer than the value, as the reader's reused one is.
            byte[] buffer = Arrays.copyOf(bytes, bytes.length + random.nextInt(64));
            if (buffer.length > bytes.length) {
                buffer[buffer.length - 1] = 0x7f; // garbage past the value's length is not read
            }
            assertEquals(PartitionRegistration.fromRecord(record), decoder.decode(buffer, bytes.length), record::toString);
        }
    }

    @Test
    void theEncoderWritesTheBytesProtobufWritesAndTheDecoderReadsThemBack() throws Exception {
        PartitionRecordEncoder encoder = new PartitionRecordEncoder();
        Random random = new Random(11);
        for (int i = 0; i < 2_000; i++) {
            PartitionRecord record = randomRecord(random);
            UUID topicId = Uuids.fromProto(record.getTopicId());
            PartitionRegistration partition = PartitionRegistration.fromRecord(record);
            byte[] encoded = encoder.encode(topicId, record.getPartitionId(), partition);
            assertArrayEquals(partition.toRecord(topicId, record.getPartitionId()).getPartition().toByteArray(),
                    encoded, record::toString);
            assertEquals(partition, decoder.decode(encoded, encoded.length));
        }
        // More replicas than the encoder's first buffer holds.
        PartitionRegistration wide = new PartitionRegistration(java.util.Collections.nCopies(200, -1), List.of(), 1, 2,
                3);
        byte[] encoded = encoder.encode(new UUID(0, 0), 0, wide);
        assertArrayEquals(wide.toRecord(new UUID(0, 0), 0).getPartition().toByteArray(), encoded);
    }

    @Test
    void readsUnpackedRepeatedFieldsAndSkipsUnknownOnes() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.writeInt32(3, 2);
        out.writeInt32(4, -1); // isr, negative: a ten-byte varint
        out.writeFixed64(41, 99L);
        out.writeInt32(3, 1);
        out.writeInt32(5, 2); // leader
        out.flush();
        byte[] value = bytes.toByteArray();
        assertEquals(PartitionRegistration.fromRecord(PartitionRecord.parseFrom(value)),
                decoder.decode(value, value.length));
        assertEquals(List.of(2, 1), decoder.decode(value, value.length).replicas());
    }

    @Test
    void equalListsAreShared() throws Exception {
        byte[] first = PartitionRecord.newBuilder().addReplicas(1).addReplicas(2).addIsr(1).addIsr(2).build()
                .toByteArray();
        byte[] second = PartitionRecord.newBuilder().setPartitionId(5).addReplicas(1).addReplicas(2).addIsr(1)
                .addIsr(2).setLeader(2).build().toByteArray();
        PartitionRegistration a = decoder.decode(first, first.length);
        PartitionRegistration b = decoder.decode(second, second.length);
        assertSame(a.replicas(), b.replicas());
        assertSame(a.replicas(), b.isr());
    }

    @Test
    void refusesATruncatedValue() throws IOException {
        byte[] bytes = randomRecord(new Random(1)).toByteArray();
        assertThrows(InvalidProtocolBufferException.class, () -> decoder.decode(bytes, bytes.length - 1));
    }

    private static PartitionRecord randomRecord(Random random) {
        PartitionRecord.Builder record = PartitionRecord.newBuilder()
                .setTopicId(Uuids.toProto(new UUID(random.nextLong(), random.nextLong())))
                .setPartitionId(random.nextInt(1000))
                .setLeader(random.nextInt(5) - 1)
                .setLeaderEpoch(random.nextInt(3) == 0 ? random.nextInt() : random.nextInt(10))
                .setPartitionEpoch(random.nextInt(10));
        int replicas = random.nextInt(5);
        for (int r = 0; r < replicas; r++) {
            record.addReplicas(random.nextInt(6));
            if (random.nextBoolean()) {
                record.addIsr(random.nextInt(6));
            }
        }
        if (random.nextInt(3) == 0) {
            for (int r = 0; r < replicas; r++) {
                record.addDirectories(Uuids.toProto(random.nextInt(4) == 0 ? new UUID(0, 0)
                        : new UUID(random.nextInt(3), random.nextLong())));
            }
        }
        if (random.nextInt(4) == 0) {
            record.addAddingReplicas(random.nextInt(6)).addRemovingReplicas(random.nextInt(6) + 100);
        }
        if (random.nextInt(4) == 0) {
            record.addEligibleLeaderReplicas(random.nextInt(6)).addLastKnownElr(-random.nextInt(3));
        }
        return record.build();
    }
}
