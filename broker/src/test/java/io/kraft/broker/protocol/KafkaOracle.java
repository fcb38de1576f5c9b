package io.kraft.broker.protocol;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.protocol.types.ArrayOf;
import org.apache.kafka.common.protocol.types.BoundField;
import org.apache.kafka.common.protocol.types.CompactArrayOf;
import org.apache.kafka.common.protocol.types.Field;
import org.apache.kafka.common.protocol.types.NullableSchema;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.Struct;
import org.apache.kafka.common.protocol.types.TaggedFields;
import org.apache.kafka.common.protocol.types.Type;
import org.apache.kafka.common.record.internal.MemoryRecords;

/**
 * The judge: kafka-clients' own message classes and schemas. Reads and writes bodies with Kafka's generated
 * code, and makes populated Kafka messages by filling Kafka's schema of the version with random values (every
 * field, nested arrays, nulls where nullable, tagged fields sometimes), written by Kafka's schema writer and read
 * back by Kafka's message class.
 */
final class KafkaOracle {
    private KafkaOracle() {
    }

    static ApiMessageType type(ApiKey api) {
        return ApiMessageType.fromApiKey(api.id());
    }

    static Schema schema(ProtocolCase c) {
        ApiMessageType t = type(c.api());
        Schema[] schemas = c.request() ? t.requestSchemas() : t.responseSchemas();
        if (c.version() >= schemas.length || schemas[c.version()] == null) {
            throw new AssertionError("kafka-clients has no schema for " + c);
        }
        return schemas[c.version()];
    }

    static ApiMessage newMessage(ProtocolCase c) {
        return c.request() ? type(c.api()).newRequest() : type(c.api()).newResponse();
    }

    /** Kafka's reading of {@code bytes}, which must take them all. */
    static ApiMessage read(ProtocolCase c, ByteBuffer bytes) {
        ByteBuffer in = bytes.duplicate();
        ApiMessage message = newMessage(c);
        message.read(new ByteBufferAccessor(in), c.version());
        if (in.hasRemaining()) {
            throw new AssertionError("Kafka left " + in.remaining() + " bytes of " + c + " unread" + TestSeed.replay());
        }
        return message;
    }

    /** Kafka's writing of {@code message} at {@code version}, flipped for reading. */
    static ByteBuffer write(org.apache.kafka.common.protocol.Message message, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buf = ByteBuffer.allocate(message.size(cache, version));
        message.write(new ByteBufferAccessor(buf), cache, version);
        return buf.flip();
    }

    /** A populated Kafka message of the case: random values in every field of Kafka's schema. */
    static ApiMessage randomMessage(ProtocolCase c, Random random) {
        return read(c, randomBytes(schema(c), random));
    }

    /** Bytes of a body of {@code schema} with random values in every field, as Kafka's schema writer writes them. */
    static ByteBuffer randomBytes(Schema schema, Random random) {
        Struct struct = (Struct) randomValue(schema, random, 0);
        ByteBuffer buf = ByteBuffer.allocate(schema.sizeOf(struct));
        schema.write(buf, struct);
        return buf.flip();
    }

    private static Object randomValue(Type type, Random r, int depth) {
        if (type instanceof Schema s) {
            if (s instanceof NullableSchema && r.nextInt(4) == 0) {
                return null;
            }
            Struct struct = new Struct(s);
            for (BoundField f : s.fields()) {
                struct.set(f, randomValue(f.def.type, r, depth + 1));
            }
            return struct;
        }
        if (type instanceof ArrayOf || type instanceof CompactArrayOf) {
            if (type.isNullable() && r.nextInt(5) == 0) {
                return null;
            }
            Type element = type.arrayElementType().orElseThrow();
            Object[] items = new Object[r.nextInt(depth > 2 ? 2 : 4)];
            for (int i = 0; i < items.length; i++) {
                items[i] = randomValue(element, r, depth + 1);
            }
            return items;
        }
        if (type instanceof TaggedFields tagged) {
            TreeMap<Integer, Object> present = new TreeMap<>();
            for (Map.Entry<Integer, Field> e : tagged.fields().entrySet()) {
                if (r.nextBoolean()) {
                    present.put(e.getKey(), randomValue(e.getValue().type, r, depth));
                }
            }
            return present;
        }
        String name = type.toString();
        if (type.isNullable() && r.nextInt(5) == 0) {
            return null;
        }
        if (name.endsWith("STRING")) {
            return randomString(r);
        }
        if (name.endsWith("BYTES")) {
            return ByteBuffer.wrap(randomBytes(r));
        }
        if (name.endsWith("RECORDS")) {
            return MemoryRecords.readableRecords(ByteBuffer.wrap(randomBytes(r)));
        }
        return switch (name) {
            case "BOOLEAN" -> r.nextBoolean();
            case "INT8" -> (byte) r.nextInt();
            case "INT16" -> (short) r.nextInt();
            case "UINT16" -> r.nextInt(1 << 16);
            case "INT32", "VARINT" -> r.nextInt();
            case "UINT32" -> r.nextLong() & 0xFFFFFFFFL;
            case "INT64", "VARLONG" -> r.nextLong();
            case "FLOAT64" -> r.nextDouble();
            case "UUID" -> new Uuid(r.nextLong(), r.nextLong());
            default -> throw new IllegalStateException("No random values for Kafka type " + name);
        };
    }

    /** Up to 7 characters: mostly ASCII, sometimes 2-byte Greek or a 4-byte surrogate pair, so lengths count bytes. */
    static String randomString(Random r) {
        int n = r.nextInt(8);
        StringBuilder sb = new StringBuilder(n + 2);
        for (int i = 0; i < n; i++) {
            int kind = r.nextInt(20);
            if (kind == 0) {
                sb.appendCodePoint(0x1F300 + r.nextInt(200));
            } else if (kind < 3) {
                sb.append((char) (0x3B1 + r.nextInt(20)));
            } else {
                sb.append((char) ('a' + r.nextInt(26)));
            }
        }
        return sb.toString();
    }

    /** 0 to 11 random bytes. */
    static byte[] randomBytes(Random r) {
        byte[] b = new byte[r.nextInt(12)];
        r.nextBytes(b);
        return b;
    }
}
