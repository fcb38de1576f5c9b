package io.kraft.cli.shell;

import java.util.Comparator;

/** How the shell orders a directory's children: numeric names (broker ids, partitions) by value, then the rest. */
public final class NodeNames {
    /** Numbers by value before other names, which sort as strings. */
    public static final Comparator<String> ORDER = (a, b) -> {
        boolean aNumber = isNumber(a);
        boolean bNumber = isNumber(b);
        if (aNumber && bNumber) {
            // Digit strings without leading zeros: the longer is the larger, equal lengths compare as text.
            int byLength = Integer.compare(a.length(), b.length());
            return byLength != 0 ? byLength : a.compareTo(b);
        }
        if (aNumber != bNumber) {
            return aNumber ? -1 : 1;
        }
        return a.compareTo(b);
    };

    private NodeNames() {
    }

    private static boolean isNumber(String name) {
        if (name.isEmpty() || (name.length() > 1 && name.charAt(0) == '0')) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
