package io.kraft.generator;

import static io.kraft.generator.FieldCode.boxedType;
import static io.kraft.generator.FieldCode.external;
import static io.kraft.generator.FieldCode.fieldId;
import static io.kraft.generator.MessageContext.inRange;
import static io.kraft.generator.MessageContext.regularVersions;
import static io.kraft.generator.MessageContext.taggedCond;
import static io.kraft.generator.MessageContext.taggedIn;

import io.kraft.generator.FieldType.ArrayOf;
import io.kraft.generator.FieldType.Primitive;
import io.kraft.generator.FieldType.StructRef;
import java.util.List;

/** Emits a struct's {@code writeFields}: its regular fields in wire order, then its tagged fields with their sizes. */
final class WriteEmitter {
    private final MessageContext ctx;
    private final SizeEmitter sizes;

    WriteEmitter(MessageContext ctx, SizeEmitter sizes) {
        this.ctx = ctx;
        this.sizes = sizes;
    }

    /** Emits {@code writeFields} of {@code s}. */
    void writeFields(CodeWriter w, StructSpec s) {
        Versions scope = ctx.scope(s);
        w.line("");
        w.open("private void writeFields(ByteBuffer out, short version, boolean flexible, RecordsSink sink)");
        for (FieldSpec f : s.fields()) {
            Versions regular = regularVersions(f).intersect(scope);
            String cond = inRange(regular, scope);
            if (cond.equals("false")) {
                continue;
            }
            if (!cond.equals("true")) {
                w.open("if (" + cond + ")");
            }
            writeField(w, s, f, regular);
            if (!cond.equals("true")) {
                w.close();
            }
        }
        Versions flexibleScope = scope.intersect(ctx.spec().flexibleVersions());
        String flexible = ctx.flexibleCond(scope);
        if (!flexible.equals("false")) {
            if (!flexible.equals("true")) {
                w.open("if (flexible)");
            }
            List<FieldSpec> tagged = taggedIn(s, flexibleScope);
            if (tagged.isEmpty()) {
                w.line("out.put((byte) 0); // no tagged fields");
            } else {
                w.line("int taggedFields = 0;");
                for (FieldSpec f : tagged) {
                    Versions known = f.taggedVersions().intersect(flexibleScope);
                    w.open("if (" + taggedCond(f, known, flexibleScope) + ")");
                    w.line("taggedFields++;");
                    w.close();
                }
                w.line("Varints.writeUnsignedVarint(taggedFields, out);");
                for (FieldSpec f : tagged) {
                    Versions known = f.taggedVersions().intersect(flexibleScope);
                    w.open("if (" + taggedCond(f, known, flexibleScope) + ")");
                    w.line("Varints.writeUnsignedVarint(" + f.tag() + ", out);");
                    w.line("int valueSize = 0;");
                    sizes.sizeOfField(w, s, f, known, "valueSize");
                    w.line("Varints.writeUnsignedVarint(valueSize, out);");
                    writeField(w, s, f, known);
                    w.close();
                }
            }
            if (!flexible.equals("true")) {
                w.close();
            }
        }
        w.close();
    }

    private void writeField(CodeWriter w, StructSpec s, FieldSpec f, Versions known) {
        String x = "this." + f.name();
        String compact = ctx.compactCond(known);
        String nullable = inRange(f.nullableVersions(), known);
        String id = JavaNames.stringLiteral(fieldId(s, f));
        FieldType t = f.type();
        if (t instanceof Primitive p) {
            switch (p) {
                case STRING -> w.line("FieldCodec.writeString(out, " + x + ", " + compact + ", " + nullable + ", " + id + ");");
                case BYTES -> w.line("FieldCodec.writeBytes(out, " + x + ", " + compact + ", " + nullable + ", " + id + ");");
                case RECORDS -> w.line("FieldCodec.writeRecords(out, " + x + ", this." + external(f) + ", " + compact + ", "
                        + nullable + ", sink, " + id + ");");
                default -> w.line(writeScalar(p, x) + ";");
            }
        } else if (t instanceof StructRef) {
            String write = ".writeFields(out, version, " + compact + ", sink);";
            switch (nullable) {
                case "false" -> w.line("FieldCodec.requireNonNull(" + x + ", " + id + ")" + write);
                case "true" -> writeNullableStruct(w, x, write);
                default -> {
                    w.open("if (" + nullable + ")");
                    writeNullableStruct(w, x, write);
                    w.reopen("else");
                    w.line("FieldCodec.requireNonNull(" + x + ", " + id + ")" + write);
                    w.close();
                }
            }
        } else {
            FieldType element = ((ArrayOf) t).element();
            w.line("FieldCodec.writeArrayLength(out, " + x + ", " + compact + ", " + nullable + ", " + id + ");");
            if (!nullable.equals("false")) {
                w.open("if (" + x + " != null)");
            }
            w.open("for (" + boxedType(element) + " element : " + x + ")");
            if (element instanceof StructRef) {
                w.line("element.writeFields(out, version, " + compact + ", sink);");
            } else {
                switch ((Primitive) element) {
                    case STRING -> w.line("FieldCodec.writeString(out, element, " + compact + ", false, " + id + ");");
                    case BYTES -> w.line("FieldCodec.writeBytes(out, element, " + compact + ", false, " + id + ");");
                    default -> w.line(writeScalar((Primitive) element, "element") + ";");
                }
            }
            w.close();
            if (!nullable.equals("false")) {
                w.close();
            }
        }
    }

    private static void writeNullableStruct(CodeWriter w, String x, String write) {
        w.line("out.put((byte) (" + x + " == null ? -1 : 1));");
        w.open("if (" + x + " != null)");
        w.line(x + write);
        w.close();
    }

    private static String writeScalar(Primitive p, String x) {
        return switch (p) {
            case BOOL -> "out.put(" + x + " ? (byte) 1 : (byte) 0)";
            case INT8 -> "out.put(" + x + ")";
            case INT16 -> "out.putShort(" + x + ")";
            case UINT16 -> "out.putShort((short) " + unboxed(x, "int") + ")";
            case INT32 -> "out.putInt(" + x + ")";
            case UINT32 -> "out.putInt((int) " + unboxed(x, "long") + ")";
            case INT64 -> "out.putLong(" + x + ")";
            case VARINT -> "Varints.writeVarint(" + x + ", out)";
            case VARLONG -> "Varints.writeVarlong(" + x + ", out)";
            case FLOAT64 -> "out.putDouble(" + x + ")";
            case UUID -> "FieldCodec.writeUuid(out, " + x + ")";
            default -> throw new IllegalArgumentException(p + " is not written as a scalar");
        };
    }

    /** Array elements are boxed; narrowing them takes an unboxing cast first (a field is a primitive already). */
    private static String unboxed(String x, String primitive) {
        return x.equals("element") ? "(" + primitive + ") " + x : x;
    }
}
