package io.kraft.generator;

/** Accumulates Java source lines with four-space indentation. */
final class CodeWriter {
    private final StringBuilder sb = new StringBuilder();
    private int indent;

    /** One line at the current indentation; an empty string gives an empty line. */
    CodeWriter line(String text) {
        if (!text.isEmpty()) {
            sb.append("    ".repeat(indent)).append(text);
        }
        sb.append('\n');
        return this;
    }

    /** A line ending in "{" (a bare block for an empty text), indenting what follows. */
    CodeWriter open(String text) {
        line(text.isEmpty() ? "{" : text + " {");
        indent++;
        return this;
    }

    /** Closes the innermost block with "}". */
    CodeWriter close() {
        return close("");
    }

    /** Closes the innermost block with "}" followed by {@code suffix} (e.g. ";"). */
    CodeWriter close(String suffix) {
        indent--;
        return line("}" + suffix);
    }

    /** Closes a block and opens the next one on the same line, e.g. "} else {". */
    CodeWriter reopen(String text) {
        indent--;
        line("} " + text + " {");
        indent++;
        return this;
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
