package io.kraft.cli.shell;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

/** One node of the metadata shell's tree: a directory of named children, or a file holding one text value. */
public sealed interface ShellNode permits ShellNode.Directory, ShellNode.File {

    /**
     * A directory; children are listed in {@link NodeNames#ORDER} (numbers numerically, then names). A lazy directory
     * makes a child only when it is looked up, so a large image's tree is never built as a whole: listing
     * {@code /topics} sorts the names and makes no topic directory at all.
     */
    final class Directory implements ShellNode {
        private final Supplier<Collection<String>> names;
        private final Function<String, ShellNode> child;
        private List<String> sortedNames;

        /** A directory of the given children, made already. */
        public Directory(Map<String, ShellNode> children) {
            Map<String, ShellNode> copy = Map.copyOf(children);
            this.names = copy::keySet;
            this.child = copy::get;
        }

        /**
         * A directory whose children are made on lookup.
         *
         * @param names the children's names, in any order
         * @param child the child of a name, or null if there is none (called anew on every lookup)
         */
        public Directory(Supplier<Collection<String>> names, Function<String, ShellNode> child) {
            this.names = Objects.requireNonNull(names, "names");
            this.child = Objects.requireNonNull(child, "child");
        }

        /** The children's names in {@link NodeNames#ORDER}. */
        public List<String> names() {
            if (sortedNames == null) {
                String[] sorted = names.get().toArray(String[]::new);
                java.util.Arrays.sort(sorted, NodeNames.ORDER);
                sortedNames = List.of(sorted);
            }
            return sortedNames;
        }

        /** The named child, or null. */
        public ShellNode child(String name) {
            return child.apply(name);
        }

        /** Every child, made now, in {@link NodeNames#ORDER} (for small directories and tests). */
        public Map<String, ShellNode> children() {
            TreeMap<String, ShellNode> children = new TreeMap<>(NodeNames.ORDER);
            for (String name : names()) {
                children.put(name, child(name));
            }
            return Collections.unmodifiableMap(children);
        }
    }

    /** A file: one value, or one JSON object for a structured one. */
    record File(String text) implements ShellNode {
        public File {
            Objects.requireNonNull(text, "text");
        }
    }
}
