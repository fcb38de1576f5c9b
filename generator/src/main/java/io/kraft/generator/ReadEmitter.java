package io.kraft.generator;

import static io.kraft.generator.FieldCode.boxedType;
import static io.kraft.generator.FieldCode.defaultExpr;
import static io.kraft.generator.FieldCode.external;
import static io.kraft.generator.FieldCode.fieldId;
import static io.kraft.generator.MessageContext.inRange;
import static io.kraft.generator.MessageContext.regularVersions;
import static io.kraft.generator.MessageContext.taggedIn;

import io.kraft.generator.FieldType.ArrayOf;
import io.kraft.generator.FieldType.Primitive;
import io.kraft.generator.FieldType.StructRef;
import java.util.List;

/** Emits a struct's {@code readFields}: its regular fields in wire order, defaults where absent, then its tagged fields. */
final class ReadEmitter {
    private final MessageContext ctx;
    private final HeapEstimate heap;

    ReadEmitter(MessageContext ctx) {
        this.ctx = ctx;
        this.heap = new HeapEstimate(ctx.spec());
    }

    /** Emits {@code readFields} of {@code s}. */
    void readFields(CodeWriter w, StructSpec s) {
        Versions scope = ctx.scope(s);
        w.line("");
        w.open("private void readFields(ByteBuffer in, short version, boolean flexible)");
        w.open("try");
        for (FieldSpec f : s.fields()) {
            Versions regular = regularVersions(f).intersect(scope);
            String cond = inRange(regular, scope);
            if (cond.equals("true")) {
                readField(w, s, f, "in", regular);
            } else if (cond.equals("false")) {
                assignDefault(w, f);
            } else {
                w.open("if (" + cond + ")");
                readField(w, s, f, "in", regular);
                w.reopen("else");
                assignDefault(w, f);
                w.close();
            }
        }
        Versions flexibleScope = scope.intersect(ctx.spec().flexibleVersions());
        String flexible = ctx.flexibleCond(scope);
        if (!flexible.equals("false")) {
            if (!flexible.equals("true")) {
                w.open("if (flexible)");
            }
            readTaggedFields(w, s, flexibleScope);
            if (!flexible.equals("true")) {
                w.close();
            }
        }
        w.reopen("catch (BufferUnderflowException e)");
        w.line("throw FieldCodec.truncated(" + JavaNames.stringLiteral(s.name()) + ", version);");
        w.close();
        w.close();
    }

    private void readTaggedFields(CodeWriter w, StructSpec s, Versions flexibleScope) {
        List<FieldSpec> tagged = taggedIn(s, flexibleScope);
        String struct = JavaNames.stringLiteral(s.name());
        w.line("int taggedFields = FieldCodec.readTaggedFieldCount(in, " + struct + ");");
        w.open("for (int tagIndex = 0; tagIndex < taggedFields; tagIndex++)");
        w.line("int tag = Varints.readUnsignedVarint(in);");
        w.line("int size = FieldCodec.readTaggedFieldSize(in, tag, " + struct + ");");
        if (!tagged.isEmpty()) {
            w.open("switch (tag)");
            for (FieldSpec f : tagged) {
                Versions known = f.taggedVersions().intersect(flexibleScope);
                String cond = inRange(known, flexibleScope);
                w.open("case " + f.tag() + " ->");
                if (!cond.equals("true")) {
                    w.open("if (" + cond + ")");
                }
                w.line("ByteBuffer value = in.slice(in.position(), size);");
                readField(w, s, f, "value", known);
                w.line("FieldCodec.checkTaggedFieldConsumed(value, " + JavaNames.stringLiteral(fieldId(s, f)) + ");");
                if (!cond.equals("true")) {
                    w.close();
                }
                w.close();
            }
            w.open("default ->");
            w.line("// an unknown tag: skipped (KIP-482)");
            w.close();
            w.close();
        }
        w.line("in.position(in.position() + size);");
        w.close();
    }

    private void readField(CodeWriter w, StructSpec s, FieldSpec f, String buf, Versions known) {
        String target = "this." + f.name();
        String compact = ctx.compactCond(known);
        String nullable = inRange(f.nullableVersions(), known);
        String id = JavaNames.stringLiteral(fieldId(s, f));
        FieldType t = f.type();
        if (t instanceof Primitive p) {
            switch (p) {
                case STRING -> w.line(target + " = FieldCodec.readString(" + buf + ", " + compact + ", " + nullable + ", " + id + ");");
                case BYTES -> w.line(target + " = FieldCodec.readBytes(" + buf + ", " + compact + ", " + nullable + ", " + id + ");");
                case RECORDS -> {
                    w.line(target + " = FieldCodec.readBytes(" + buf + ", " + compact + ", " + nullable + ", " + id + ");");
                    w.line("this." + external(f) + " = null;");
                }
                default -> w.line(target + " = " + readScalar(p, buf) + ";");
            }
        } else if (t instanceof StructRef ref) {
            String read = "new " + ref.name() + "(" + buf + ", version, " + compact + ")";
            switch (nullable) {
                case "false" -> w.line(target + " = " + read + ";");
                case "true" -> w.line(target + " = " + buf + ".get() < 0 ? null : " + read + ";");
                default -> {
                    w.open("if (" + nullable + ")");
                    w.line(target + " = " + buf + ".get() < 0 ? null : " + read + ";");
                    w.reopen("else");
                    w.line(target + " = " + read + ";");
                    w.close();
                }
            }
        } else {
            FieldType element = ((ArrayOf) t).element();
            w.open("");
            // the array's whole estimated heap is charged to the parse budget before any element is built
            w.line("int count = FieldCodec.readArrayLength(" + buf + ", " + compact + ", " + nullable + ", " + id + ", "
                    + heap.elementBytes(element) + ");");
            if (!nullable.equals("false")) {
                w.open("if (count < 0)");
                w.line(target + " = null;");
                w.reopen("else");
            }
            String elementType = boxedType(element);
            w.line("List<" + elementType + "> list = new ArrayList<>(FieldCodec.initialCapacity(count));");
            w.open("for (int i = 0; i < count; i++)");
            String read;
            if (element instanceof StructRef ref) {
                read = "new " + ref.name() + "(" + buf + ", version, " + compact + ")";
            } else {
                read = switch ((Primitive) element) {
                    case STRING -> "FieldCodec.readString(" + buf + ", " + compact + ", false, " + id + ")";
                    case BYTES -> "FieldCodec.readBytes(" + buf + ", " + compact + ", false, " + id + ")";
                    default -> readScalar((Primitive) element, buf);
                };
            }
            w.line("list.add(" + read + ");");
            w.close();
            w.line(target + " = list;");
            if (!nullable.equals("false")) {
                w.close();
            }
            w.close();
        }
    }

    private static String readScalar(Primitive p, String buf) {
        return switch (p) {
            case BOOL -> buf + ".get() != 0";
            case INT8 -> buf + ".get()";
            case INT16 -> buf + ".getShort()";
            case UINT16 -> "(" + buf + ".getShort() & 0xFFFF)";
            case INT32 -> buf + ".getInt()";
            case UINT32 -> "(" + buf + ".getInt() & 0xFFFFFFFFL)";
            case INT64 -> buf + ".getLong()";
            case VARINT -> "Varints.readVarint(" + buf + ")";
            case VARLONG -> "Varints.readVarlong(" + buf + ")";
            case FLOAT64 -> buf + ".getDouble()";
            case UUID -> "FieldCodec.readUuid(" + buf + ")";
            default -> throw new IllegalArgumentException(p + " is not read as a scalar");
        };
    }

    private void assignDefault(CodeWriter w, FieldSpec f) {
        w.line("this." + f.name() + " = " + defaultExpr(f) + ";");
        if (f.type() == Primitive.RECORDS) {
            w.line("this." + external(f) + " = null;");
        }
    }
}
