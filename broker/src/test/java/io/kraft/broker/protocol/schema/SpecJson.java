package io.kraft.broker.protocol.schema;

import io.kraft.broker.protocol.ApiKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Renders a {@link MessageSchema} declared in Java as the JSON spec file the message generator reads
 * ({@code broker/src/main/messages/*.json}), so the two descriptions can be checked to say the same.
 * A struct used by more than one field of a message is written once, under "commonStructs".
 */
public final class SpecJson {
    private SpecJson() {
    }

    /** The spec file text of {@code schema}, the {@code type} ("request"/"response") of {@code api}. */
    public static String render(ApiKey api, String type, MessageSchema schema) {
        Map<StructSchema, Integer> uses = new IdentityHashMap<>();
        countUses(schema.root(), uses);
        List<StructSchema> common = new ArrayList<>();
        uses.forEach((s, n) -> {
            if (n > 1) {
                common.add(s);
            }
        });
        common.sort((a, b) -> a.name().compareTo(b.name()));

        StringBuilder sb = new StringBuilder();
        sb.append("{\n");
        sb.append("  \"apiKey\": ").append(api.id()).append(",\n");
        sb.append("  \"type\": ").append(quote(type)).append(",\n");
        sb.append("  \"name\": ").append(quote(schema.name())).append(",\n");
        sb.append("  \"validVersions\": ").append(quote(schema.validVersions().toString())).append(",\n");
        sb.append("  \"flexibleVersions\": ").append(quote(schema.flexibleVersions().toString())).append(",\n");
        sb.append("  \"fields\": ");
        fields(schema.root(), common, "  ", sb);
        if (!common.isEmpty()) {
            sb.append(",\n  \"commonStructs\": [\n");
            for (int i = 0; i < common.size(); i++) {
                StructSchema s = common.get(i);
                sb.append("    {\"name\": ").append(quote(s.name())).append(", \"fields\": ");
                fields(s, common, "    ", sb);
                sb.append('}').append(i + 1 < common.size() ? ",\n" : "\n");
            }
            sb.append("  ]");
        }
        sb.append("\n}\n");
        return sb.toString();
    }

    private static void countUses(StructSchema struct, Map<StructSchema, Integer> uses) {
        for (Field f : struct.fields()) {
            StructSchema nested = nestedStruct(f);
            if (nested != null && uses.merge(nested, 1, Integer::sum) == 1) {
                countUses(nested, uses);
            }
        }
    }

    private static StructSchema nestedStruct(Field f) {
        Type t = f.type() instanceof ArrayType a ? a.element() : f.type();
        return t instanceof StructSchema s ? s : null;
    }

    private static void fields(StructSchema struct, List<StructSchema> common, String indent, StringBuilder sb) {
        sb.append("[\n");
        List<Field> fields = struct.fields();
        for (int i = 0; i < fields.size(); i++) {
            field(fields.get(i), common, indent + "  ", sb);
            sb.append(i + 1 < fields.size() ? ",\n" : "\n");
        }
        sb.append(indent).append(']');
    }

    private static void field(Field f, List<StructSchema> common, String indent, StringBuilder sb) {
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("name", quote(camelCase(f.name())));
        attrs.put("type", quote(typeName(f.type())));
        attrs.put("versions", quote(f.versions().toString()));
        if (!f.nullableVersions().isEmpty()) {
            attrs.put("nullableVersions", quote(f.nullableVersions().toString()));
        }
        if (f.tag() >= 0) {
            attrs.put("tag", Integer.toString(f.tag()));
            attrs.put("taggedVersions", quote(f.taggedVersions().toString()));
        }
        String def = explicitDefault(f);
        if (def != null) {
            attrs.put("default", def);
        }
        sb.append(indent).append('{');
        boolean first = true;
        for (Map.Entry<String, String> e : attrs.entrySet()) {
            sb.append(first ? "" : ", ").append(quote(e.getKey())).append(": ").append(e.getValue());
            first = false;
        }
        StructSchema nested = nestedStruct(f);
        if (nested != null && !common.contains(nested)) {
            sb.append(", \"fields\": ");
            fields(nested, common, indent, sb);
        }
        sb.append('}');
    }

    /** The default as JSON when it differs from the type's implicit one (0, false, "", empty, zero UUID, null records). */
    private static String explicitDefault(Field f) {
        Type t = f.type();
        if (t instanceof StructSchema) {
            return f.defaultsToNull() ? "null" : null;
        }
        Object value = f.defaultValue();
        Object implicit;
        if (t instanceof ArrayType) {
            implicit = List.of();
        } else {
            implicit = switch ((PrimitiveType) t) {
                case BOOL -> Boolean.FALSE;
                case INT8 -> (byte) 0;
                case INT16 -> (short) 0;
                case UINT16, INT32, VARINT -> 0;
                case UINT32, INT64, VARLONG -> 0L;
                case FLOAT64 -> 0.0d;
                case UUID -> FieldSpec.ZERO_UUID;
                case STRING -> "";
                case BYTES -> ByteBuffer.allocate(0);
                case RECORDS -> null;
            };
        }
        if (Objects.equals(value, implicit)) {
            return null;
        }
        if (value == null) {
            return "null";
        }
        if (value instanceof String s) {
            return quote(s);
        }
        if (value instanceof Boolean || value instanceof Number) {
            return value.toString();
        }
        throw new IllegalStateException("Field " + f + " has a default this renderer cannot write: " + value);
    }

    private static String typeName(Type t) {
        if (t instanceof ArrayType a) {
            return "[]" + typeName(a.element());
        }
        if (t instanceof StructSchema s) {
            return s.name();
        }
        return switch ((PrimitiveType) t) {
            case BOOL -> "bool";
            case INT8 -> "int8";
            case INT16 -> "int16";
            case UINT16 -> "uint16";
            case INT32 -> "int32";
            case UINT32 -> "uint32";
            case INT64 -> "int64";
            case VARINT -> "varint";
            case VARLONG -> "varlong";
            case FLOAT64 -> "float64";
            case UUID -> "uuid";
            case STRING -> "string";
            case BYTES -> "bytes";
            case RECORDS -> "records";
        };
    }

    /** snake_case (the protocol guide's names) to lowerCamelCase (Java's). */
    public static String camelCase(String snake) {
        StringBuilder sb = new StringBuilder(snake.length());
        boolean upper = false;
        for (char c : snake.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                sb.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return sb.toString();
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
