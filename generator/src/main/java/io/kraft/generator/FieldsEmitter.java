package io.kraft.generator;

import static io.kraft.generator.FieldCode.defaultExpr;
import static io.kraft.generator.FieldCode.external;
import static io.kraft.generator.FieldCode.fieldId;
import static io.kraft.generator.FieldCode.javaType;

import io.kraft.generator.FieldType.Primitive;

/** Emits a struct's state: its fields, constructors, getters and fluent (range-checking) setters. */
final class FieldsEmitter {
    private FieldsEmitter() {
    }

    /** Emits the field declarations of {@code s}, its public all-defaults constructor and its private wire constructor. */
    static void fieldsAndConstructors(CodeWriter w, StructSpec s) {
        for (FieldSpec f : s.fields()) {
            w.line("private " + javaType(f.type()) + " " + f.name() + ";");
            if (f.type() == Primitive.RECORDS) {
                w.line("private ExternalRecords " + external(f) + ";");
            }
        }
        if (!s.fields().isEmpty()) {
            w.line("");
        }
        w.line("/** Every field at its default. */");
        w.open("public " + s.name() + "()");
        for (FieldSpec f : s.fields()) {
            w.line("this." + f.name() + " = " + defaultExpr(f) + ";");
            if (f.type() == Primitive.RECORDS) {
                w.line("this." + external(f) + " = null;");
            }
        }
        w.close();
        w.line("");
        w.line("/** Reads one from the wire; readFields assigns every field. */");
        w.open("private " + s.name() + "(ByteBuffer in, short version, boolean flexible)");
        w.line("readFields(in, version, flexible);");
        w.close();
    }

    /** Emits a getter and a fluent setter per field of {@code s}, and the external-records pair beside a records field. */
    static void accessors(CodeWriter w, StructSpec s) {
        for (FieldSpec f : s.fields()) {
            String type = javaType(f.type());
            String name = f.name();
            String setter = "set" + JavaNames.capitalize(name);
            w.line("");
            w.line("/** " + describe(f) + " */");
            w.open("public " + type + " " + name + "()");
            if (f.type() == Primitive.RECORDS) {
                w.open("if (this." + external(f) + " != null)");
                w.line("throw new IllegalStateException(" + JavaNames.stringLiteral(fieldId(s, f)
                        + " holds external records; read them with " + external(f) + "()") + ");");
                w.close();
            }
            w.line("return this." + name + ";");
            w.close();
            w.line("");
            w.open("public " + s.name() + " " + setter + "(" + type + " " + name + ")");
            if (f.type() == Primitive.UINT16 || f.type() == Primitive.UINT32) {
                String max = f.type() == Primitive.UINT16 ? "0xFFFF" : "0xFFFFFFFFL";
                w.open("if (" + name + " < 0 || " + name + " > " + max + ")");
                w.line("throw new IllegalArgumentException(" + JavaNames.stringLiteral(fieldId(s, f)
                        + " takes values 0 to " + max + ", not ") + " + " + name + ");");
                w.close();
            }
            w.line("this." + name + " = " + name + ";");
            if (f.type() == Primitive.RECORDS) {
                w.line("this." + external(f) + " = null;");
            }
            w.line("return this;");
            w.close();
            if (f.type() == Primitive.RECORDS) {
                String ext = external(f);
                w.line("");
                w.line("/** Records the transport sends itself (e.g. a file region); null unless set. */");
                w.open("public ExternalRecords " + ext + "()");
                w.line("return this." + ext + ";");
                w.close();
                w.line("");
                w.line("/** Holds records that writing leaves out and reports to the RecordsSink with their offset. */");
                w.open("public " + s.name() + " set" + JavaNames.capitalize(ext) + "(ExternalRecords " + ext + ")");
                w.line("this." + ext + " = " + ext + ";");
                w.line("this." + name + " = null;");
                w.line("return this;");
                w.close();
            }
        }
    }

    /** The getter's Javadoc: what the spec says of the field. */
    private static String describe(FieldSpec f) {
        StringBuilder sb = new StringBuilder(f.type() + ", versions " + f.versions());
        if (!f.nullableVersions().isEmpty()) {
            sb.append(", nullable ").append(f.nullableVersions());
        }
        if (f.isTagged()) {
            sb.append(", tag ").append(f.tag()).append(" in ").append(f.taggedVersions());
        }
        if (f.hasDefault()) {
            sb.append(", default ").append(f.defaultValue() instanceof String str ? "\"" + str + "\"" : f.defaultValue());
        }
        return sb.append('.').toString().replace("*/", "* /");
    }
}
