package io.kraft.cli.shell;

import java.util.ArrayList;
import java.util.List;

/** Absolute and relative paths of the shell's tree: {@code /}-separated, with {@code .} and {@code ..}. */
public final class ShellPaths {
    private ShellPaths() {
    }

    /**
     * The components of {@code path} resolved against the directory {@code cwd} (itself components); {@code ..}
     * at the root stays at the root, as in a Unix shell.
     */
    public static List<String> resolve(List<String> cwd, String path) {
        List<String> result = new ArrayList<>(path.startsWith("/") ? List.of() : cwd);
        for (String part : path.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                if (!result.isEmpty()) {
                    result.remove(result.size() - 1);
                }
            } else {
                result.add(part);
            }
        }
        return result;
    }

    /** The absolute text form, {@code /} for the root. */
    public static String format(List<String> components) {
        return components.isEmpty() ? "/" : "/" + String.join("/", components);
    }
}
