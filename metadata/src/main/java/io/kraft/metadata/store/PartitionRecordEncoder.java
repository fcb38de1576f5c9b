package io.kraft.metadata.store;

import com.google.protobuf.CodedOutputStream;
import io.kraft.metadata.image.PartitionRegistration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Encodes a partition as the bytes of its {@code PartitionRecord} (metadata.proto) for the state store, the same bytes
 * {@code partition.toRecord(topicId, partitionId).getPartition().toByteArray()} gives, without the message, its
 * builder and the list copies: that took half of writing a delta to the store. Reuses one buffer: one encoder per
 * write, on one thread. {@link PartitionRecordDecoder} reads them back.
 */
final class PartitionRecordEncoder {
    private byte[] buffer = new byte[256];

    byte[] encode(UUID topicId, int partitionId, PartitionRegistration partition) {
        while (true) {
            CodedOutputStream out = CodedOutputStream.newInstance(buffer);
            try {
                write(out, topicId, partitionId, partition);
                return Arrays.copyOf(buffer, out.getTotalBytesWritten());
            } catch (CodedOutputStream.OutOfSpaceException e) {
                buffer = new byte[buffer.length * 2];
            } catch (IOException e) { // only running out of the array's space is possible
                throw new UncheckedIOException(e);
            }
        }
    }

    // Fields in number order, zero values and empty lists left out, repeated int32 packed: as protobuf writes proto3.
    private static void write(CodedOutputStream out, UUID topicId, int partitionId, PartitionRegistration partition)
            throws IOException {
        writeUuid(out, 1, topicId);
        writeInt(out, 2, partitionId);
        writeInts(out, 3, partition.replicas());
        writeInts(out, 4, partition.isr());
        writeInt(out, 5, partition.leader());
        writeInt(out, 6, partition.leaderEpoch());
        writeInt(out, 7, partition.partitionEpoch());
        for (UUID directory : partition.directories()) {
            writeUuid(out, 8, directory);
        }
        writeInts(out, 9, partition.addingReplicas());
        writeInts(out, 10, partition.removingReplicas());
        writeInts(out, 11, partition.elr());
        writeInts(out, 12, partition.lastKnownElr());
    }

    private static void writeInt(CodedOutputStream out, int field, int value) throws IOException {
        if (value != 0) {
            out.writeInt32(field, value);
        }
    }

    private static void writeInts(CodedOutputStream out, int field, List<Integer> values) throws IOException {
        if (values.isEmpty()) {
            return;
        }
        int size = 0;
        for (int value : values) {
            size += CodedOutputStream.computeInt32SizeNoTag(value);
        }
        out.writeTag(field, 2);
        out.writeUInt32NoTag(size);
        for (int value : values) {
            out.writeInt32NoTag(value);
        }
    }

    // A Uuid message (fixed64 fields 1 and 2), written even when empty, as a set message field is.
    private static void writeUuid(CodedOutputStream out, int field, UUID id) throws IOException {
        long most = id.getMostSignificantBits();
        long least = id.getLeastSignificantBits();
        out.writeTag(field, 2);
        out.writeUInt32NoTag((most != 0 ? 9 : 0) + (least != 0 ? 9 : 0));
        if (most != 0) {
            out.writeFixed64(1, most);
        }
        if (least != 0) {
            out.writeFixed64(2, least);
        }
    }
}
