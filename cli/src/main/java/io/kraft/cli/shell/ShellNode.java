package io.kraft.cli.shell;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** One node of the metadata shell's tree: a directory of named children, or a file holding one text value. */
public sealed interface ShellNode permits ShellNode.Directory, ShellNode.File {

    /** A directory; children are listed in {@link NodeNames#ORDER} (numbers numerically, then names). */
    record Directory(Map<String, ShellNode> children) implements ShellNode {
        public Directory {
            TreeMap<String, ShellNode> sorted = new TreeMap<>(NodeNames.ORDER);
            sorted.putAll(children);
            children = Collections.unmodifiableMap(sorted);
        }

        public ShellNode child(String name) {
            return children.get(name);
        }
    }

    /** A file: one value, or one JSON object for a structured one. */
    record File(String text) implements ShellNode {
        public File {
            Objects.requireNonNull(text, "text");
        }
    }
}
