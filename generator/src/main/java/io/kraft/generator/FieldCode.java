package io.kraft.generator;

import io.kraft.generator.FieldType.ArrayOf;
import io.kraft.generator.FieldType.Primitive;
import io.kraft.generator.FieldType.StructRef;

/** The Java a field turns into wherever it is used: its types, its default, the test for it, and the names around it. */
final class FieldCode {
    private FieldCode() {
    }

    static String javaType(FieldType t) {
        if (t instanceof ArrayOf a) {
            return "List<" + boxedType(a.element()) + ">";
        }
        if (t instanceof StructRef s) {
            return s.name();
        }
        return switch ((Primitive) t) {
            case BOOL -> "boolean";
            case INT8 -> "byte";
            case INT16 -> "short";
            case UINT16, INT32, VARINT -> "int";
            case UINT32, INT64, VARLONG -> "long";
            case FLOAT64 -> "double";
            case UUID -> "UUID";
            case STRING -> "String";
            case BYTES, RECORDS -> "ByteBuffer";
        };
    }

    static String boxedType(FieldType t) {
        if (!(t instanceof Primitive p) || !p.isScalar()) {
            return javaType(t);
        }
        return switch (p) {
            case BOOL -> "Boolean";
            case INT8 -> "Byte";
            case INT16 -> "Short";
            case UINT16, INT32, VARINT -> "Integer";
            case UINT32, INT64, VARLONG -> "Long";
            default -> "Double";
        };
    }

    static String defaultExpr(FieldSpec f) {
        if (f.defaultsToNull()) {
            return "null";
        }
        if (f.type() instanceof ArrayOf) {
            return "new ArrayList<>(0)";
        }
        if (f.type() instanceof StructRef s) {
            return "new " + s.name() + "()";
        }
        Object v = f.defaultValue();
        return switch ((Primitive) f.type()) {
            case BOOL -> f.hasDefault() ? v.toString() : "false";
            case INT8 -> "(byte) " + (f.hasDefault() ? v : 0);
            case INT16 -> "(short) " + (f.hasDefault() ? v : 0);
            case UINT16, INT32, VARINT -> f.hasDefault() ? v.toString() : "0";
            case UINT32, INT64, VARLONG -> (f.hasDefault() ? v : 0) + "L";
            case FLOAT64 -> (f.hasDefault() ? Double.toString(((Number) v).doubleValue()) : "0.0") + "d";
            case UUID -> "FieldCodec.ZERO_UUID";
            case STRING -> f.hasDefault() ? JavaNames.stringLiteral((String) v) : "\"\"";
            case BYTES -> "FieldCodec.EMPTY_BYTES";
            case RECORDS -> "null";
        };
    }

    /** A boolean expression: whether the field holds its default (KIP-482: tagged fields are sent only when they do not). */
    static String isDefaultExpr(FieldSpec f) {
        String x = "this." + f.name();
        if (f.type() == Primitive.RECORDS) {
            return x + " == null && this." + external(f) + " == null";
        }
        if (f.defaultsToNull()) {
            return x + " == null";
        }
        if (f.type() instanceof ArrayOf) {
            return x + " != null && " + x + ".isEmpty()";
        }
        if (f.type() instanceof StructRef) {
            return x + " == null || " + x + ".isAllDefault()";
        }
        return switch ((Primitive) f.type()) {
            case FLOAT64 -> "Double.doubleToRawLongBits(" + x + ") == Double.doubleToRawLongBits(" + defaultExpr(f) + ")";
            case UUID -> "FieldCodec.ZERO_UUID.equals(" + x + ")";
            case STRING -> defaultExpr(f) + ".equals(" + x + ")";
            case BYTES -> x + " != null && !" + x + ".hasRemaining()";
            default -> x + " == " + defaultExpr(f);
        };
    }

    /** The field (and accessor) name of the external records beside a records field. */
    static String external(FieldSpec f) {
        return "external" + JavaNames.capitalize(f.name());
    }

    /** How errors name a field: "Struct.field". */
    static String fieldId(StructSpec s, FieldSpec f) {
        return s.name() + "." + f.name();
    }
}
