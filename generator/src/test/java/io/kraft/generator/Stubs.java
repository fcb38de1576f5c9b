package io.kraft.generator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Stand-ins for the broker runtime the generated classes build on, so the generator's tests can
 * compile and run generated code without the broker: real where the tests exercise it (varints,
 * versions, tagged-field headers), throwing elsewhere. Keyed by fully qualified class name.
 */
final class Stubs {
    static final Map<String, String> SOURCES = new LinkedHashMap<>();

    static {
        SOURCES.put("io.kraft.broker.protocol.codec.ExternalRecords", """
                package io.kraft.broker.protocol.codec;
                public interface ExternalRecords {
                    int sizeInBytes();
                }
                """);
        SOURCES.put("io.kraft.broker.protocol.codec.RecordsSink", """
                package io.kraft.broker.protocol.codec;
                public interface RecordsSink {
                    void records(int outputOffset, ExternalRecords records);
                }
                """);
        SOURCES.put("io.kraft.broker.protocol.codec.Varints", """
                package io.kraft.broker.protocol.codec;
                import java.nio.ByteBuffer;
                public final class Varints {
                    private Varints() {
                    }
                    public static int readUnsignedVarint(ByteBuffer in) {
                        int value = 0;
                        for (int shift = 0; ; shift += 7) {
                            byte b = in.get();
                            value |= (b & 0x7F) << shift;
                            if (b >= 0) {
                                return value;
                            }
                        }
                    }
                    public static void writeUnsignedVarint(int value, ByteBuffer out) {
                        while ((value & ~0x7F) != 0) {
                            out.put((byte) ((value & 0x7F) | 0x80));
                            value >>>= 7;
                        }
                        out.put((byte) value);
                    }
                    public static int sizeOfUnsignedVarint(int value) {
                        int bits = 32 - Integer.numberOfLeadingZeros(value);
                        return bits == 0 ? 1 : (bits + 6) / 7;
                    }
                    public static int readVarint(ByteBuffer in) {
                        throw new UnsupportedOperationException();
                    }
                    public static long readVarlong(ByteBuffer in) {
                        throw new UnsupportedOperationException();
                    }
                    public static void writeVarint(int value, ByteBuffer out) {
                        throw new UnsupportedOperationException();
                    }
                    public static void writeVarlong(long value, ByteBuffer out) {
                        throw new UnsupportedOperationException();
                    }
                    public static int sizeOfVarint(int value) {
                        throw new UnsupportedOperationException();
                    }
                    public static int sizeOfVarlong(long value) {
                        throw new UnsupportedOperationException();
                    }
                }
                """);
        SOURCES.put("io.kraft.broker.protocol.ApiKey", """
                package io.kraft.broker.protocol;
                public final class ApiKey {
                    private final short id;
                    public ApiKey(short id) {
                        this.id = id;
                    }
                    public short id() {
                        return id;
                    }
                }
                """);
        SOURCES.put("test.gen.ApiMessage", """
                package test.gen;
                public interface ApiMessage extends Message {
                    short apiKey();
                }
                """);
        SOURCES.put("test.gen.Message", """
                package test.gen;
                import io.kraft.broker.protocol.codec.RecordsSink;
                import java.nio.ByteBuffer;
                public interface Message {
                    short lowestSupportedVersion();
                    short highestSupportedVersion();
                    void read(ByteBuffer in, short version);
                    int size(short version);
                    void write(ByteBuffer out, short version, RecordsSink sink);
                    long externalRecordsBytes(short version);
                }
                """);
        SOURCES.put("io.kraft.broker.protocol.codec.FieldCodec", """
                package io.kraft.broker.protocol.codec;
                import io.kraft.broker.protocol.codec.ExternalRecords;
                import io.kraft.broker.protocol.codec.RecordsSink;
                import io.kraft.broker.protocol.codec.Varints;
                import java.nio.ByteBuffer;
                import java.util.List;
                import java.util.UUID;
                public final class FieldCodec {
                    public static final UUID ZERO_UUID = new UUID(0L, 0L);
                    public static final ByteBuffer EMPTY_BYTES = ByteBuffer.allocate(0).asReadOnlyBuffer();
                    private FieldCodec() {
                    }
                    public static void checkVersion(short version, short lowest, short highest, String message) {
                        if (version < lowest || version > highest) {
                            throw new IllegalArgumentException(message + " has no version " + version);
                        }
                    }
                    public static RuntimeException truncated(String struct, short version) {
                        return new IllegalStateException("Truncated " + struct + " at version " + version);
                    }
                    public static int readTaggedFieldCount(ByteBuffer in, String struct) {
                        return Varints.readUnsignedVarint(in);
                    }
                    public static int readTaggedFieldSize(ByteBuffer in, int tag, String struct) {
                        return Varints.readUnsignedVarint(in);
                    }
                    public static void checkTaggedFieldConsumed(ByteBuffer value, String field) {
                        if (value.hasRemaining()) {
                            throw new IllegalStateException(field);
                        }
                    }
                    public static int initialCapacity(int count) {
                        return count;
                    }
                    public static String readString(ByteBuffer in, boolean compact, boolean nullable, String field) {
                        throw new UnsupportedOperationException();
                    }
                    public static ByteBuffer readBytes(ByteBuffer in, boolean compact, boolean nullable, String field) {
                        throw new UnsupportedOperationException();
                    }
                    public static UUID readUuid(ByteBuffer in) {
                        throw new UnsupportedOperationException();
                    }
                    public static int readArrayLength(ByteBuffer in, boolean compact, boolean nullable, String field,
                                                      int elementHeapBytes) {
                        throw new UnsupportedOperationException();
                    }
                    public static <T> T requireNonNull(T value, String field) {
                        return value;
                    }
                    public static int sizeOfString(String s, boolean compact, boolean nullable, String field) {
                        throw new UnsupportedOperationException();
                    }
                    public static void writeString(ByteBuffer out, String s, boolean compact, boolean nullable, String field) {
                        throw new UnsupportedOperationException();
                    }
                    public static int sizeOfBytes(ByteBuffer b, boolean compact, boolean nullable, String field) {
                        throw new UnsupportedOperationException();
                    }
                    public static void writeBytes(ByteBuffer out, ByteBuffer b, boolean compact, boolean nullable, String field) {
                        throw new UnsupportedOperationException();
                    }
                    public static int sizeOfRecords(ByteBuffer b, ExternalRecords e, boolean compact, boolean nullable, String field) {
                        throw new UnsupportedOperationException();
                    }
                    public static void writeRecords(ByteBuffer out, ByteBuffer b, ExternalRecords e, boolean compact,
                                                    boolean nullable, RecordsSink sink, String field) {
                        throw new UnsupportedOperationException();
                    }
                    public static int sizeOfArrayLength(List<?> list, boolean compact, boolean nullable, String field) {
                        throw new UnsupportedOperationException();
                    }
                    public static void writeArrayLength(ByteBuffer out, List<?> list, boolean compact, boolean nullable,
                                                        String field) {
                        throw new UnsupportedOperationException();
                    }
                    public static void writeUuid(ByteBuffer out, UUID uuid) {
                        throw new UnsupportedOperationException();
                    }
                    public static String describe(ByteBuffer b) {
                        return b == null ? "null" : "bytes(" + b.remaining() + ")";
                    }
                    public static String describeRecords(ByteBuffer b, ExternalRecords e) {
                        return e != null ? "external" : describe(b);
                    }
                }
                """);
    }

    private Stubs() {
    }
}
