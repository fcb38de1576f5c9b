package io.kraft.metadata.store;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.kraft.metadata.image.PartitionRegistration;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * Decodes a stored {@code PartitionRecord} (metadata.proto) straight into a {@link PartitionRegistration}, for a
 * snapshot load: no message object, no builder, no boxed list per field, and equal lists shared across partitions
 * ({@link SharedLists}). It reads what {@code PartitionRegistration.fromRecord(PartitionRecord.parseFrom(bytes))}
 * reads (the topic id and partition id come from the store's key and are skipped), accepting repeated fields packed
 * or not as protobuf does and skipping unknown fields. Reuses its buffers: one decoder per load, on one thread.
 */
final class PartitionRecordDecoder {
    // Field numbers of PartitionRecord in metadata.proto.
    private static final int REPLICAS = 3;
    private static final int ISR = 4;
    private static final int LEADER = 5;
    private static final int LEADER_EPOCH = 6;
    private static final int PARTITION_EPOCH = 7;
    private static final int DIRECTORIES = 8;
    private static final int ADDING_REPLICAS = 9;
    private static final int REMOVING_REPLICAS = 10;
    private static final int ELIGIBLE_LEADER_REPLICAS = 11;
    private static final int LAST_KNOWN_ELR = 12;
    /** Tags of a Uuid's fields: field 1 and 2, wire type fixed64. */
    private static final int UUID_MOST_TAG = 1 << 3 | WireFormat.WIRETYPE_FIXED64;
    private static final int UUID_LEAST_TAG = 2 << 3 | WireFormat.WIRETYPE_FIXED64;
    /** The repeated int32 fields, indexed by field number. */
    private static final int INT_LISTS = LAST_KNOWN_ELR + 1;

    private final SharedLists shared = new SharedLists();
    private final int[][] ints = new int[INT_LISTS][8];
    private final int[] counts = new int[INT_LISTS];
    private long[] directoryBits = new long[16];
    private int directories;

    PartitionRegistration decode(byte[] buffer, int length) throws InvalidProtocolBufferException {
        Arrays.fill(counts, 0);
        directories = 0;
        int leader = 0;
        int leaderEpoch = 0;
        int partitionEpoch = 0;
        CodedInputStream input = CodedInputStream.newInstance(buffer, 0, length);
        try {
            for (int tag = input.readTag(); tag != 0; tag = input.readTag()) {
                int field = WireFormat.getTagFieldNumber(tag);
                int wireType = WireFormat.getTagWireType(tag);
                switch (field) {
                    case LEADER -> leader = wireType == WireFormat.WIRETYPE_VARINT ? input.readInt32() : skip(input, tag);
                    case LEADER_EPOCH ->
                            leaderEpoch = wireType == WireFormat.WIRETYPE_VARINT ? input.readInt32() : skip(input, tag);
                    case PARTITION_EPOCH ->
                            partitionEpoch = wireType == WireFormat.WIRETYPE_VARINT ? input.readInt32() : skip(input, tag);
                    case REPLICAS, ISR, ADDING_REPLICAS, REMOVING_REPLICAS, ELIGIBLE_LEADER_REPLICAS, LAST_KNOWN_ELR ->
                            readInts(input, field, wireType, tag);
                    case DIRECTORIES -> {
                        if (wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                            readDirectory(input);
                        } else {
                            input.skipField(tag);
                        }
                    }
                    default -> input.skipField(tag);
                }
            }
        } catch (InvalidProtocolBufferException e) {
            throw e;
        } catch (IOException e) { // not thrown reading an array, but declared
            throw new InvalidProtocolBufferException(e);
        }
        return new PartitionRegistration(list(REPLICAS), list(ISR), leader, leaderEpoch, partitionEpoch,
                shared.uuids(directoryBits, directories), list(ADDING_REPLICAS), list(REMOVING_REPLICAS),
                list(ELIGIBLE_LEADER_REPLICAS), list(LAST_KNOWN_ELR));
    }

    private List<Integer> list(int field) {
        return shared.ints(ints[field], counts[field]);
    }

    // A field of the wrong wire type is skipped and leaves the default, as protobuf's parser treats it as unknown.
    private static int skip(CodedInputStream input, int tag) throws IOException {
        input.skipField(tag);
        return 0;
    }

    private void readInts(CodedInputStream input, int field, int wireType, int tag) throws IOException {
        if (wireType == WireFormat.WIRETYPE_VARINT) {
            add(field, input.readInt32());
        } else if (wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
            int limit = input.pushLimit(input.readRawVarint32());
            while (input.getBytesUntilLimit() > 0) {
                add(field, input.readInt32());
            }
            input.popLimit(limit);
        } else {
            input.skipField(tag);
        }
    }

    private void add(int field, int value) {
        int[] values = ints[field];
        if (counts[field] == values.length) {
            values = ints[field] = Arrays.copyOf(values, values.length * 2);
        }
        values[counts[field]++] = value;
    }

    // A Uuid message: fixed64 most (1) and least (2) significant bits, either missing meaning 0.
    private void readDirectory(CodedInputStream input) throws IOException {
        int limit = input.pushLimit(input.readRawVarint32());
        long most = 0;
        long least = 0;
        for (int tag = input.readTag(); tag != 0; tag = input.readTag()) {
            if (tag == UUID_MOST_TAG) {
                most = input.readFixed64();
            } else if (tag == UUID_LEAST_TAG) {
                least = input.readFixed64();
            } else {
                input.skipField(tag);
            }
        }
        input.popLimit(limit);
        if (2 * directories + 2 > directoryBits.length) {
            directoryBits = Arrays.copyOf(directoryBits, directoryBits.length * 2);
        }
        directoryBits[2 * directories] = most;
        directoryBits[2 * directories + 1] = least;
        directories++;
    }
}
