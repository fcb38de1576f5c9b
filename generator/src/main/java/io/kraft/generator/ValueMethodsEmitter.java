package io.kraft.generator;

import static io.kraft.generator.FieldCode.boxedType;
import static io.kraft.generator.FieldCode.external;
import static io.kraft.generator.FieldCode.isDefaultExpr;

import io.kraft.generator.FieldType.Primitive;
import java.util.ArrayList;
import java.util.List;

/** Emits a struct's {@code equals}, {@code hashCode} and {@code toString}, and a nested struct's {@code isAllDefault}. */
final class ValueMethodsEmitter {
    private ValueMethodsEmitter() {
    }

    /** Emits {@code isAllDefault} of nested struct {@code s}, which decides whether a tagged field holding it is sent. */
    static void isAllDefault(CodeWriter w, StructSpec s) {
        w.line("");
        w.line("/** Whether every field holds its default, so that a tagged field holding this struct is not sent. */");
        w.open("private boolean isAllDefault()");
        if (s.fields().isEmpty()) {
            w.line("return true;");
        } else {
            List<FieldSpec> fields = s.fields();
            for (int i = 0; i < fields.size(); i++) {
                String test = "(" + isDefaultExpr(fields.get(i)) + ")";
                w.line((i == 0 ? "return " : "        && ") + test + (i + 1 == fields.size() ? ";" : ""));
            }
        }
        w.close();
    }

    /** Emits {@code equals}, {@code hashCode} and {@code toString} of {@code s}, over all its fields. */
    static void equalsHashCodeToString(CodeWriter w, StructSpec s) {
        equalsMethod(w, s);
        hashCodeMethod(w, s);
        toStringMethod(w, s);
    }

    private static void equalsMethod(CodeWriter w, StructSpec s) {
        w.line("");
        w.line("@Override");
        w.open("public boolean equals(Object o)");
        w.open("if (this == o)");
        w.line("return true;");
        w.close();
        w.open("if (!(o instanceof " + s.name() + " other))");
        w.line("return false;");
        w.close();
        List<String> tests = new ArrayList<>();
        for (FieldSpec f : s.fields()) {
            String a = "this." + f.name();
            String b = "other." + f.name();
            if (f.type() == Primitive.FLOAT64) {
                tests.add("Double.doubleToLongBits(" + a + ") == Double.doubleToLongBits(" + b + ")");
            } else if (f.type() instanceof Primitive p && p.isScalar()) {
                tests.add(a + " == " + b);
            } else {
                tests.add("Objects.equals(" + a + ", " + b + ")");
                if (f.type() == Primitive.RECORDS) {
                    tests.add("Objects.equals(this." + external(f) + ", other." + external(f) + ")");
                }
            }
        }
        if (tests.isEmpty()) {
            w.line("return true;");
        }
        for (int i = 0; i < tests.size(); i++) {
            w.line((i == 0 ? "return " : "        && ") + tests.get(i) + (i + 1 == tests.size() ? ";" : ""));
        }
        w.close();
    }

    private static void hashCodeMethod(CodeWriter w, StructSpec s) {
        w.line("");
        w.line("@Override");
        w.open("public int hashCode()");
        w.line("int h = 0;");
        for (FieldSpec f : s.fields()) {
            String x = "this." + f.name();
            String hash = f.type() instanceof Primitive p && p.isScalar()
                    ? boxedType(p) + ".hashCode(" + x + ")" : "Objects.hashCode(" + x + ")";
            w.line("h = 31 * h + " + hash + ";");
            if (f.type() == Primitive.RECORDS) {
                w.line("h = 31 * h + Objects.hashCode(this." + external(f) + ");");
            }
        }
        w.line("return h;");
        w.close();
    }

    private static void toStringMethod(CodeWriter w, StructSpec s) {
        w.line("");
        w.line("@Override");
        w.open("public String toString()");
        List<FieldSpec> fields = s.fields();
        if (fields.isEmpty()) {
            w.line("return " + JavaNames.stringLiteral(s.name() + "()") + ";");
        }
        for (int i = 0; i < fields.size(); i++) {
            FieldSpec f = fields.get(i);
            String x = "this." + f.name();
            String value = switch (f.type() instanceof Primitive p ? p : Primitive.INT32) {
                case BYTES -> "FieldCodec.describe(" + x + ")";
                case RECORDS -> "FieldCodec.describeRecords(" + x + ", this." + external(f) + ")";
                default -> x;
            };
            String label = (i == 0 ? s.name() + "(" : ", ") + f.name() + "=";
            w.line((i == 0 ? "return " : "        + ") + JavaNames.stringLiteral(label) + " + " + value
                    + (i + 1 == fields.size() ? " + \")\";" : ""));
        }
        w.close();
    }
}
