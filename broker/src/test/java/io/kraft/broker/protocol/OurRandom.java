package io.kraft.broker.protocol;

import io.kraft.broker.protocol.schema.ArrayType;
import io.kraft.broker.protocol.schema.Field;
import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.PrimitiveType;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.broker.protocol.schema.StructSchema;
import io.kraft.broker.protocol.schema.Type;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/** Builds populated {@link Struct}s from our own schemas: every field existing at the version, random values. */
final class OurRandom {
    private OurRandom() {
    }

    static Struct randomBody(MessageSchema schema, short version, Random r) {
        return randomStruct(schema.root(), version, r, 0);
    }

    private static Struct randomStruct(StructSchema schema, short v, Random r, int depth) {
        Struct s = new Struct(schema);
        for (Field f : schema.fields()) {
            if (!f.existsIn(v) || (f.isTaggedIn(v) && r.nextBoolean())) {
                continue; // absent, or a tagged field left at its default
            }
            if (f.isNullableIn(v) && r.nextInt(5) == 0) {
                s.set(f, null);
                continue;
            }
            s.set(f, randomValue(f.type(), v, r, depth));
        }
        return s;
    }

    private static Object randomValue(Type type, short v, Random r, int depth) {
        if (type instanceof StructSchema s) {
            return randomStruct(s, v, r, depth + 1);
        }
        if (type instanceof ArrayType a) {
            int n = r.nextInt(depth > 1 ? 2 : 4);
            List<Object> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                list.add(randomValue(a.element(), v, r, depth + 1));
            }
            return list;
        }
        return switch ((PrimitiveType) type) {
            case BOOL -> r.nextBoolean();
            case INT8 -> (byte) r.nextInt();
            case INT16 -> (short) r.nextInt();
            case UINT16 -> r.nextInt(65536);
            case INT32, VARINT -> r.nextInt();
            case UINT32 -> r.nextLong() & 0xFFFFFFFFL;
            case INT64, VARLONG -> r.nextLong();
            case FLOAT64 -> r.nextDouble();
            case UUID -> new UUID(r.nextLong(), r.nextLong());
            case STRING -> KafkaOracle.randomString(r);
            case BYTES, RECORDS -> ByteBuffer.wrap(KafkaOracle.randomBytes(r));
        };
    }
}
