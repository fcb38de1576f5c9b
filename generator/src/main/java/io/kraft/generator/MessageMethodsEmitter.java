package io.kraft.generator;

import static io.kraft.generator.MessageContext.inRange;

import java.util.ArrayList;
import java.util.List;

/** Emits the body class's {@code Message} methods: {@code parse}, key and version getters, version-checked read/size/write. */
final class MessageMethodsEmitter {
    private MessageMethodsEmitter() {
    }

    /** Emits the methods of body class {@code s} that implement {@code Message}/{@code ApiMessage}. */
    static void messageMethods(CodeWriter w, MessageContext ctx, StructSpec s) {
        MessageSpec m = ctx.spec();
        String flexible = inRange(m.flexibleVersions(), m.validVersions());
        String check = "FieldCodec.checkVersion(version, LOWEST_SUPPORTED_VERSION, HIGHEST_SUPPORTED_VERSION, "
                + JavaNames.stringLiteral(m.name()) + ");";
        w.line("");
        w.line("/** Reads a " + m.name() + " of {@code version} at the buffer's position, advancing it. */");
        w.open("public static " + s.name() + " parse(ByteBuffer in, short version)");
        w.line(check);
        w.line("return new " + s.name() + "(in, version, " + flexible + ");");
        w.close();
        List<String[]> constants = new ArrayList<>();
        if (!m.isData()) {
            constants.add(new String[] {"apiKey", "API_KEY"});
        }
        constants.add(new String[] {"lowestSupportedVersion", "LOWEST_SUPPORTED_VERSION"});
        constants.add(new String[] {"highestSupportedVersion", "HIGHEST_SUPPORTED_VERSION"});
        for (String[] constant : constants) {
            w.line("");
            w.line("@Override");
            w.open("public short " + constant[0] + "()");
            w.line("return " + constant[1] + ";");
            w.close();
        }
        w.line("");
        w.line("@Override");
        w.open("public void read(ByteBuffer in, short version)");
        w.line(check);
        w.line("readFields(in, version, " + flexible + ");");
        w.close();
        w.line("");
        w.line("@Override");
        w.open("public int size(short version)");
        w.line(check);
        w.line("return sizeOfFields(version, " + flexible + ");");
        w.close();
        w.line("");
        w.line("@Override");
        w.open("public void write(ByteBuffer out, short version, RecordsSink sink)");
        w.line(check);
        w.line("writeFields(out, version, " + flexible + ", sink);");
        w.close();
        w.line("");
        w.line("@Override");
        w.open("public long externalRecordsBytes(short version)");
        w.line(check);
        w.line(ctx.holdsRecords(s.name()) ? "return externalBytes(version);" : "return 0L;");
        w.close();
    }
}
