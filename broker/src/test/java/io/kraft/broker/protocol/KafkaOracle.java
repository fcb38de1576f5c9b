package io.kraft.broker.protocol;

import io.kraft.broker.protocol.schema.ArrayType;
import io.kraft.broker.protocol.schema.Field;
import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.PrimitiveType;
import io.kraft.broker.protocol.schema.StructSchema;
import io.kraft.broker.protocol.schema.Type;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.protocol.types.ArrayOf;
import org.apache.kafka.common.protocol.types.BoundField;
import org.apache.kafka.common.protocol.types.CompactArrayOf;
import org.apache.kafka.common.protocol.types.NullableSchema;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.Struct;
import org.apache.kafka.common.protocol.types.TaggedFields;
import org.apache.kafka.common.record.internal.MemoryRecords;

/**
 * The judge: Apache kafka-clients' own message classes and schemas. Generates populated messages
 * serialized by Kafka's writers, parses bytes with Kafka's readers, and renders both Kafka's and
 * our schemas as comparable descriptors.
 */
final class KafkaOracle {
    private KafkaOracle() {
    }

    static ApiMessageType type(ApiKey api) {
        return ApiMessageType.fromApiKey(api.id());
    }

    static Schema kafkaSchema(ApiKey api, boolean request, short version) {
        ApiMessageType t = type(api);
        return (request ? t.requestSchemas() : t.responseSchemas())[version];
    }

    static ApiMessage newMessage(ApiKey api, boolean request) {
        return request ? type(api).newRequest() : type(api).newResponse();
    }

    /** Parses with Kafka's generated reader. */
    static ApiMessage parse(ApiKey api, boolean request, short version, ByteBuffer bytes) {
        ApiMessage message = newMessage(api, request);
        message.read(new ByteBufferAccessor(bytes.duplicate()), version);
        return message;
    }

    /** Serializes with Kafka's generated writer. */
    static ByteBuffer write(ApiMessage message, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buf = ByteBuffer.allocate(message.size(cache, version));
        message.write(new ByteBufferAccessor(buf), cache, version);
        return buf.flip();
    }

    /**
     * A populated message: random values for every field at the version (nested arrays, nulls where
     * nullable, tagged fields sometimes), written by Kafka's schema writer, read by Kafka's generated
     * message class.
     */
    static ApiMessage randomMessage(ApiKey api, boolean request, short version, java.util.Random random) {
        Schema schema = kafkaSchema(api, request, version);
        Struct struct = (Struct) randomValue(schema, random, 0);
        ByteBuffer buf = ByteBuffer.allocate(schema.sizeOf(struct));
        schema.write(buf, struct);
        buf.flip();
        return parse(api, request, version, buf);
    }

    private static Object randomValue(org.apache.kafka.common.protocol.types.Type type, java.util.Random r, int depth) {
        if (type instanceof NullableSchema ns) {
            return r.nextInt(4) == 0 ? null : randomStruct(ns.fields(), new Struct(ns), r, depth);
        }
        if (type instanceof Schema s) {
            return randomStruct(s.fields(), new Struct(s), r, depth);
        }
        if (type instanceof ArrayOf || type instanceof CompactArrayOf) {
            boolean nullable = type.isNullable();
            if (nullable && r.nextInt(5) == 0) {
                return null;
            }
            org.apache.kafka.common.protocol.types.Type element = type.arrayElementType().orElseThrow();
            int n = r.nextInt(depth > 2 ? 2 : 4);
            Object[] items = new Object[n];
            for (int i = 0; i < n; i++) {
                items[i] = randomValue(element, r, depth + 1);
            }
            return items;
        }
        if (type instanceof TaggedFields tf) {
            TreeMap<Integer, Object> values = new TreeMap<>();
            for (Map.Entry<Integer, org.apache.kafka.common.protocol.types.Field> e : tf.fields().entrySet()) {
                if (r.nextBoolean()) {
                    values.put(e.getKey(), randomValue(e.getValue().type, r, depth));
                }
            }
            return values;
        }
        String name = type.toString();
        boolean nullable = name.contains("NULLABLE");
        if (nullable && r.nextInt(5) == 0) {
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
        switch (name) {
            case "BOOLEAN": return r.nextBoolean();
            case "INT8": return (byte) r.nextInt();
            case "INT16": return (short) r.nextInt();
            case "UINT16": return r.nextInt(65536);
            case "INT32": return r.nextInt();
            case "UINT32": return r.nextLong() & 0xFFFFFFFFL;
            case "INT64": return r.nextLong();
            case "VARINT": return r.nextInt();
            case "VARLONG": return r.nextLong();
            case "FLOAT64": return r.nextDouble();
            case "UUID": return new Uuid(r.nextLong(), r.nextLong());
            default: throw new IllegalStateException("No generator for Kafka type " + name);
        }
    }

    private static Struct randomStruct(BoundField[] fields, Struct struct, java.util.Random r, int depth) {
        for (BoundField f : fields) {
            struct.set(f, randomValue(f.def.type, r, depth + 1));
        }
        return struct;
    }

    static String randomString(java.util.Random r) {
        int n = r.nextInt(8);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            // mostly ASCII, sometimes multi-byte UTF-8 so lengths are counted in bytes
            sb.append(r.nextInt(10) == 0 ? (char) (0x3B1 + r.nextInt(20)) : (char) ('a' + r.nextInt(26)));
        }
        return sb.toString();
    }

    static byte[] randomBytes(java.util.Random r) {
        byte[] b = new byte[r.nextInt(12)];
        r.nextBytes(b);
        return b;
    }

    // ---- structural descriptors ------------------------------------------------------------

    /** Kafka's schema at a version as a list of "name:TYPE" lines, nested structs indented. */
    static List<String> describeKafka(Schema schema) {
        List<String> out = new ArrayList<>();
        describeKafkaStruct(schema, "", out);
        return out;
    }

    private static void describeKafkaStruct(Schema schema, String indent, List<String> out) {
        for (BoundField f : schema.fields()) {
            org.apache.kafka.common.protocol.types.Type t = f.def.type;
            if (t instanceof TaggedFields tf) {
                for (Map.Entry<Integer, org.apache.kafka.common.protocol.types.Field> e : tf.fields().entrySet()) {
                    describeKafkaField(indent + "@" + e.getKey() + " ", e.getValue().name, e.getValue().type, out);
                }
            } else {
                describeKafkaField(indent, f.def.name, t, out);
            }
        }
    }

    private static void describeKafkaField(String indent, String name, org.apache.kafka.common.protocol.types.Type t,
                                           List<String> out) {
        if (t instanceof Schema s) {
            out.add(indent + name + ":" + (t instanceof NullableSchema ? "NULLABLE_STRUCT" : "STRUCT"));
            describeKafkaStruct(s, indent + "  ", out);
        } else if (t instanceof ArrayOf || t instanceof CompactArrayOf) {
            String kind = (t instanceof CompactArrayOf ? "COMPACT_" : "") + (t.isNullable() ? "NULLABLE_" : "") + "ARRAY";
            org.apache.kafka.common.protocol.types.Type e = t.arrayElementType().orElseThrow();
            if (e instanceof Schema s) {
                out.add(indent + name + ":" + kind + "(STRUCT)");
                describeKafkaStruct(s, indent + "  ", out);
            } else {
                out.add(indent + name + ":" + kind + "(" + e + ")");
            }
        } else {
            out.add(indent + name + ":" + t);
        }
    }

    /** Our schema at a version, rendered the same way. */
    static List<String> describeOurs(MessageSchema schema, short version) {
        List<String> out = new ArrayList<>();
        describeOurStruct(schema.root(), version, schema.isFlexible(version), "", out);
        return out;
    }

    private static void describeOurStruct(StructSchema s, short v, boolean flex, String indent, List<String> out) {
        for (Field f : s.fields()) {
            if (f.existsIn(v) && !f.isTaggedIn(v)) {
                describeOurField(indent, f, v, flex, out);
            }
        }
        if (flex) {
            s.fields().stream().filter(f -> f.isTaggedIn(v)).sorted(java.util.Comparator.comparingInt(Field::tag))
                    .forEach(f -> describeOurField(indent + "@" + f.tag() + " ", f, v, flex, out));
        }
    }

    private static void describeOurField(String indent, Field f, short v, boolean flex, List<String> out) {
        Type t = f.type();
        boolean nullable = f.isNullableIn(v);
        String c = flex ? "COMPACT_" : "";
        String n = nullable ? "NULLABLE_" : "";
        if (t instanceof StructSchema s) {
            out.add(indent + f.name() + ":" + (nullable ? "NULLABLE_STRUCT" : "STRUCT"));
            describeOurStruct(s, v, flex, indent + "  ", out);
        } else if (t instanceof ArrayType a) {
            String kind = c + n + "ARRAY";
            if (a.element() instanceof StructSchema s) {
                out.add(indent + f.name() + ":" + kind + "(STRUCT)");
                describeOurStruct(s, v, flex, indent + "  ", out);
            } else {
                out.add(indent + f.name() + ":" + kind + "(" + primitiveName((PrimitiveType) a.element(), flex, false) + ")");
            }
        } else {
            out.add(indent + f.name() + ":" + primitiveName((PrimitiveType) t, flex, nullable));
        }
    }

    private static String primitiveName(PrimitiveType p, boolean flex, boolean nullable) {
        String c = flex ? "COMPACT_" : "";
        String n = nullable ? "NULLABLE_" : "";
        return switch (p) {
            case BOOL -> "BOOLEAN";
            case STRING, BYTES, RECORDS -> c + n + p.name();
            default -> p.name();
        };
    }
}
