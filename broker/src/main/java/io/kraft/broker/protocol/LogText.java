package io.kraft.broker.protocol;

/**
 * A string a client chose (client id, transactional id, group id, topic name), made safe to put in a log line:
 * control characters are escaped, so a client cannot end a line and forge the next one or put bytes in the log that
 * break whatever reads it (a NUL in a fuzzed client id cut the test harness's output stream), and it is cut at
 * {@value #MAX_CHARS} characters.
 */
public final class LogText {
    /** The most characters of a client's string a log line shows. */
    public static final int MAX_CHARS = 256;

    private LogText() {
    }

    /** {@code text} escaped and cut for a log line; "null" for null. */
    public static String of(String text) {
        if (text == null) {
            return "null";
        }
        int shown = Math.min(text.length(), MAX_CHARS);
        StringBuilder out = null;
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            boolean unsafe = Character.isISOControl(c) || Character.isSurrogate(c) || c == '\u2028' || c == '\u2029';
            if (unsafe && out == null) {
                out = new StringBuilder(shown + 16).append(text, 0, i);
            }
            if (out != null) {
                if (unsafe) {
                    out.append(String.format("\\u%04x", (int) c));
                } else {
                    out.append(c);
                }
            }
        }
        String safe = out == null ? text.substring(0, shown) : out.toString();
        return shown < text.length() ? safe + "...(" + text.length() + " chars)" : safe;
    }
}
