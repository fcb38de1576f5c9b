package io.kraft.systest.readme;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fenced code blocks of a Markdown page and the command lines in them. A block's info string says what it is:
 * {@code sh} holds commands that work as written, {@code text} holds synopses (placeholders such as {@code H:P},
 * alternatives in brackets) that a reader adapts. A line ending in a backslash continues on the next one.
 */
public final class ReadmeBlocks {
    private static final Pattern FENCE = Pattern.compile("^```\\s*(\\S*)\\s*$");
    /** A comment after a command: whitespace, '#', whitespace. The commands here have no '#' of their own. */
    private static final Pattern TRAILING_COMMENT = Pattern.compile("\\s+#(\\s.*)?$");

    /** One command line: where it starts in the page, its text as written, and the text without a trailing comment. */
    public record Command(String blockType, int line, String text) {
        /** The command without its trailing {@code # comment}, continuation lines joined with their indentation. */
        public String withoutComment() {
            return TRAILING_COMMENT.matcher(text).replaceFirst("").strip();
        }

        /** The trailing comment without the '#', or "". */
        public String comment() {
            Matcher matcher = TRAILING_COMMENT.matcher(text);
            return matcher.find() ? matcher.group().strip().substring(1).strip() : "";
        }

        @Override
        public String toString() {
            return "README.md:" + line + ": " + text;
        }
    }

    private ReadmeBlocks() {
    }

    /**
     * Every command line of every fenced block, in page order.
     *
     * @throws IllegalArgumentException if a block has no info string or is never closed: the page must say what each
     *                                  block is
     */
    public static List<Command> commands(String markdown) {
        List<Command> commands = new ArrayList<>();
        String[] lines = markdown.split("\n", -1);
        String blockType = null;
        int blockStart = 0;
        StringBuilder pending = null;
        int pendingLine = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            Matcher fence = FENCE.matcher(line);
            if (fence.matches()) {
                if (blockType == null) {
                    if (fence.group(1).isEmpty()) {
                        throw new IllegalArgumentException("README.md:" + (i + 1) + ": a code block without a type: "
                                + "say sh (runs as written) or text (a synopsis)");
                    }
                    blockType = fence.group(1);
                    blockStart = i + 1;
                } else {
                    if (pending != null) {
                        throw new IllegalArgumentException("README.md:" + pendingLine
                                + ": a continued line ends the block");
                    }
                    blockType = null;
                }
                continue;
            }
            if (blockType == null || (pending == null && line.isBlank())) {
                continue;
            }
            if (pending == null) {
                pending = new StringBuilder();
                pendingLine = i + 1;
            } else {
                pending.append('\n');
            }
            if (line.endsWith("\\")) {
                pending.append(line);
                continue;
            }
            pending.append(line);
            commands.add(new Command(blockType, pendingLine, pending.toString()));
            pending = null;
        }
        if (blockType != null) {
            throw new IllegalArgumentException("README.md:" + blockStart + ": a code block that is never closed");
        }
        return commands;
    }
}
