package io.kraft.generator;

/** A spec file that cannot be used; the message is one line naming the file and, where it applies, the field. */
public final class SpecException extends Exception {
    private static final long serialVersionUID = 1L;

    public SpecException(String file, String field, String problem) {
        super(format(file, field, problem));
    }

    /** The one-line form every spec error takes: "File.json: field a.b: problem". */
    public static String format(String file, String field, String problem) {
        return file + ": " + (field == null ? "" : "field " + field + ": ") + problem.replaceAll("\\s*[\r\n]+\\s*", " ");
    }
}
