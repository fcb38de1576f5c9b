package io.kraft.generator;

import io.kraft.generator.FieldType.ArrayOf;
import io.kraft.generator.FieldType.Primitive;
import io.kraft.generator.FieldType.StructRef;
import java.util.HashMap;
import java.util.Map;

/**
 * A deliberately high estimate of the heap one array element costs once read (its object, the objects its
 * scalar and string fields hold, and its slot in the list), so that generated readers can charge an array's
 * full cost against the request's parse budget before allocating any of it. Nested arrays are charged when
 * they are read. Sizes assume a 64-bit JVM with compressed references; strings' and bytes' contents are
 * not counted, as they take no more than the frame bytes they come from.
 */
final class HeapEstimate {
    private static final int OBJECT_HEADER = 16;
    private static final int REFERENCE = 4;
    private static final int FIELD = 8;
    private static final int BOXED_SMALL = 16;
    private static final int BOXED_LARGE = 24;
    private static final int STRING = 40;
    private static final int BYTE_BUFFER = 48;
    private static final int UUID = 32;
    private static final int EMPTY_LIST = 40;

    private final MessageSpec spec;
    private final Map<String, Integer> structBytes = new HashMap<>();

    HeapEstimate(MessageSpec spec) {
        this.spec = spec;
    }

    /** The estimated heap bytes of one element of an array of {@code element}, its list slot included. */
    int elementBytes(FieldType element) {
        return REFERENCE + valueBytes(element);
    }

    private int valueBytes(FieldType type) {
        if (type instanceof StructRef ref) {
            return structBytes(ref.name());
        }
        if (type instanceof ArrayOf) {
            return EMPTY_LIST;
        }
        return switch ((Primitive) type) {
            case BOOL, INT8, INT16, UINT16, INT32, VARINT -> BOXED_SMALL;
            case UINT32, INT64, VARLONG, FLOAT64 -> BOXED_LARGE;
            case UUID -> UUID;
            case STRING -> STRING;
            case BYTES, RECORDS -> BYTE_BUFFER;
        };
    }

    private int structBytes(String name) {
        Integer known = structBytes.get(name);
        if (known != null) {
            return known;
        }
        StructSpec struct = spec.structs().get(name);
        if (struct == null) {
            throw new IllegalStateException("struct " + name + " is not declared in " + spec.name());
        }
        // one reference for the list of unknown tagged fields
        int bytes = OBJECT_HEADER + REFERENCE;
        for (FieldSpec f : struct.fields()) {
            bytes += f.type() instanceof Primitive p && p.isScalar() ? FIELD : REFERENCE + valueBytes(f.type());
            if (f.type() == Primitive.RECORDS) {
                bytes += REFERENCE;
            }
        }
        structBytes.put(name, bytes);
        return bytes;
    }
}
