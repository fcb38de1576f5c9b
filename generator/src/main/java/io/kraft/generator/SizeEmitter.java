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

/** Emits a struct's {@code sizeOfFields} (its encoded size, tagged fields included) and {@code externalBytes}. */
final class SizeEmitter {
    private final MessageContext ctx;

    SizeEmitter(MessageContext ctx) {
        this.ctx = ctx;
    }

    /** Emits {@code sizeOfFields} of {@code s}. */
    void sizeOfFields(CodeWriter w, StructSpec s) {
        Versions scope = ctx.scope(s);
        w.line("");
        w.open("private int sizeOfFields(short version, boolean flexible)");
        w.line("int size = 0;");
        for (FieldSpec f : s.fields()) {
            Versions regular = regularVersions(f).intersect(scope);
            String cond = inRange(regular, scope);
            if (cond.equals("false")) {
                continue;
            }
            if (!cond.equals("true")) {
                w.open("if (" + cond + ")");
            }
            sizeOfField(w, s, f, regular, "size");
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
                w.line("size += 1; // no tagged fields");
            } else {
                w.line("int taggedFields = 0;");
            }
            for (FieldSpec f : tagged) {
                Versions known = f.taggedVersions().intersect(flexibleScope);
                w.open("if (" + taggedCond(f, known, flexibleScope) + ")");
                w.line("taggedFields++;");
                w.line("int valueSize = 0;");
                sizeOfField(w, s, f, known, "valueSize");
                w.line("size += " + unsignedVarintSize(f.tag()) + " + Varints.sizeOfUnsignedVarint(valueSize) + valueSize;");
                w.close();
            }
            if (!tagged.isEmpty()) {
                w.line("size += Varints.sizeOfUnsignedVarint(taggedFields);");
            }
            if (!flexible.equals("true")) {
                w.close();
            }
        }
        w.line("return size;");
        w.close();
    }

    /** Adds the encoded size of field {@code f}, in versions {@code known}, to the local {@code acc}. */
    void sizeOfField(CodeWriter w, StructSpec s, FieldSpec f, Versions known, String acc) {
        String x = "this." + f.name();
        String compact = ctx.compactCond(known);
        String nullable = inRange(f.nullableVersions(), known);
        String id = JavaNames.stringLiteral(fieldId(s, f));
        FieldType t = f.type();
        if (t instanceof Primitive p) {
            switch (p) {
                case STRING -> w.line(acc + " += FieldCodec.sizeOfString(" + x + ", " + compact + ", " + nullable + ", " + id + ");");
                case BYTES -> w.line(acc + " += FieldCodec.sizeOfBytes(" + x + ", " + compact + ", " + nullable + ", " + id + ");");
                case RECORDS -> w.line(acc + " += FieldCodec.sizeOfRecords(" + x + ", this." + external(f) + ", " + compact
                        + ", " + nullable + ", " + id + ");");
                default -> w.line(acc + " += " + scalarSize(p, x) + ";");
            }
        } else if (t instanceof StructRef) {
            String size = x + ".sizeOfFields(version, " + compact + ")";
            String nonNull = "FieldCodec.requireNonNull(" + x + ", " + id + ").sizeOfFields(version, " + compact + ")";
            switch (nullable) {
                case "false" -> w.line(acc + " += " + nonNull + ";");
                case "true" -> w.line(acc + " += " + x + " == null ? 1 : 1 + " + size + ";");
                default -> {
                    w.open("if (" + nullable + ")");
                    w.line(acc + " += " + x + " == null ? 1 : 1 + " + size + ";");
                    w.reopen("else");
                    w.line(acc + " += " + nonNull + ";");
                    w.close();
                }
            }
        } else {
            FieldType element = ((ArrayOf) t).element();
            w.line(acc + " += FieldCodec.sizeOfArrayLength(" + x + ", " + compact + ", " + nullable + ", " + id + ");");
            if (!nullable.equals("false")) {
                w.open("if (" + x + " != null)");
            }
            if (element instanceof Primitive p && p.fixedSize() > 0) {
                w.line(acc + " += " + p.fixedSize() + " * " + x + ".size();");
            } else {
                w.open("for (" + boxedType(element) + " element : " + x + ")");
                String size;
                if (element instanceof StructRef) {
                    size = "element.sizeOfFields(version, " + compact + ")";
                } else {
                    size = switch ((Primitive) element) {
                        case STRING -> "FieldCodec.sizeOfString(element, " + compact + ", false, " + id + ")";
                        case BYTES -> "FieldCodec.sizeOfBytes(element, " + compact + ", false, " + id + ")";
                        default -> scalarSize((Primitive) element, "element");
                    };
                }
                w.line(acc + " += " + size + ";");
                w.close();
            }
            if (!nullable.equals("false")) {
                w.close();
            }
        }
    }

    private static String scalarSize(Primitive p, String x) {
        return switch (p) {
            case VARINT -> "Varints.sizeOfVarint(" + x + ")";
            case VARLONG -> "Varints.sizeOfVarlong(" + x + ")";
            default -> Integer.toString(p.fixedSize());
        };
    }

    /** Emits {@code externalBytes} of {@code s}, a struct that holds records: the bytes its external records add. */
    void externalBytes(CodeWriter w, StructSpec s) {
        Versions scope = ctx.scope(s);
        w.line("");
        w.open("private long externalBytes(short version)");
        w.line("long total = 0;");
        for (FieldSpec f : s.fields()) {
            String nested = f.type().structName();
            boolean records = f.type() == Primitive.RECORDS;
            if (!records && (nested == null || !ctx.holdsRecords(nested))) {
                continue;
            }
            String cond = inRange(f.versions(), scope);
            if (cond.equals("false")) {
                continue;
            }
            String x = "this." + (records ? external(f) : f.name());
            w.open("if (" + (cond.equals("true") ? "" : cond + " && ") + x + " != null)");
            if (records) {
                w.line("total += " + x + ".sizeInBytes();");
            } else if (f.type() instanceof StructRef) {
                w.line("total += " + x + ".externalBytes(version);");
            } else {
                w.open("for (" + nested + " element : " + x + ")");
                w.line("total += element.externalBytes(version);");
                w.close();
            }
            w.close();
        }
        w.line("return total;");
        w.close();
    }

    private static int unsignedVarintSize(int value) {
        int bits = 32 - Integer.numberOfLeadingZeros(value);
        return bits == 0 ? 1 : (bits + 6) / 7;
    }
}
