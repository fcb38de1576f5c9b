package io.kraft.cli.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One metadata-shell session over a {@link MetadataTree}: a working directory, a history, and the commands
 * {@code ls cat tree find pwd cd history help exit}. Results go to {@code out}, complaints (one line each, prefixed
 * with the command's name) to {@code err}, so a script's output holds only what it asked for.
 */
public final class ShellSession {
    /** What one command line did. */
    public enum Outcome { OK, FAILED, EXIT }

    /** The commands, with the usage and one-line description {@code help} prints. */
    enum Command {
        LS("ls [PATH...]", "Lists a directory's children (or names a file)."),
        CAT("cat PATH...", "Prints files' contents."),
        TREE("tree [PATH]", "Prints a directory and everything below it, with file contents."),
        FIND("find [PATH]", "Prints the absolute path of every node at and below PATH."),
        PWD("pwd", "Prints the working directory."),
        CD("cd [PATH]", "Changes the working directory (to / without PATH)."),
        HISTORY("history", "Lists the commands entered so far."),
        HELP("help", "Lists the commands."),
        EXIT("exit", "Leaves the shell.");

        final String usage;
        final String description;

        Command(String usage, String description) {
            this.usage = usage;
            this.description = description;
        }
    }

    private final MetadataTree tree;
    private final PrintWriter out;
    private final PrintWriter err;
    private final List<String> history = new ArrayList<>();
    private List<String> cwd = List.of();

    public ShellSession(MetadataTree tree, PrintWriter out, PrintWriter err) {
        this.tree = tree;
        this.out = out;
        this.err = err;
    }

    /** The working directory's absolute path. */
    public String workingDirectory() {
        return ShellPaths.format(cwd);
    }

    /**
     * Reads command lines until {@code exit} or the end of input, prompting with the working directory when
     * {@code prompt} (an interactive terminal).
     *
     * @return 0, or 1 if the last command failed (so a piped script's failure shows in the exit code)
     */
    public int run(BufferedReader in, boolean prompt) {
        Outcome last = Outcome.OK;
        try {
            while (true) {
                if (prompt) {
                    out.print("[" + workingDirectory() + "] > ");
                    out.flush();
                }
                String line = in.readLine();
                if (line == null) {
                    if (prompt) {
                        out.println();
                    }
                    break;
                }
                Outcome outcome = execute(line);
                if (outcome == Outcome.EXIT) {
                    break;
                }
                if (!line.isBlank()) {
                    last = outcome;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read commands: " + e.getMessage(), e);
        } finally {
            out.flush();
            err.flush();
        }
        return last == Outcome.FAILED ? 1 : 0;
    }

    /** Runs one command line (blank lines do nothing); words may be quoted with ' or ". */
    public Outcome execute(String line) {
        List<String> words;
        try {
            words = CommandLineWords.split(line);
        } catch (IllegalArgumentException e) {
            return fail("shell", e.getMessage());
        }
        return execute(words);
    }

    /** Runs one command given as words (the command's name first), as the one-shot form passes them. */
    public Outcome execute(List<String> words) {
        if (words.isEmpty()) {
            return Outcome.OK;
        }
        history.add(String.join(" ", words));
        String name = words.get(0);
        List<String> args = words.subList(1, words.size());
        Outcome outcome = switch (name) {
            case "ls" -> ls(args);
            case "cat" -> cat(args);
            case "tree" -> tree(args);
            case "find" -> find(args);
            case "pwd" -> noArguments(name, args) ? print(workingDirectory()) : Outcome.FAILED;
            case "cd" -> cd(args);
            case "history" -> noArguments(name, args) ? history() : Outcome.FAILED;
            case "help" -> help();
            case "exit", "quit" -> Outcome.EXIT;
            default -> fail(name, "unknown command: try help");
        };
        out.flush();
        err.flush();
        return outcome;
    }

    private Outcome ls(List<String> args) {
        List<String> paths = args.isEmpty() ? List.of(".") : args;
        Outcome outcome = Outcome.OK;
        for (int i = 0; i < paths.size(); i++) {
            String path = paths.get(i);
            Optional<ShellNode> node = lookup(path);
            if (node.isEmpty()) {
                outcome = fail("ls", path + ": no such file or directory");
                continue;
            }
            if (node.get() instanceof ShellNode.Directory directory) {
                if (paths.size() > 1) {
                    out.println((i > 0 ? System.lineSeparator() : "") + path + ":");
                }
                directory.names().forEach(out::println);
            } else {
                out.println(path);
            }
        }
        return outcome;
    }

    private Outcome cat(List<String> args) {
        if (args.isEmpty()) {
            return fail("cat", "missing PATH: usage " + Command.CAT.usage);
        }
        Outcome outcome = Outcome.OK;
        for (String path : args) {
            Optional<ShellNode> node = lookup(path);
            if (node.isEmpty()) {
                outcome = fail("cat", path + ": no such file or directory");
            } else if (node.get() instanceof ShellNode.File file) {
                out.println(file.text());
            } else {
                outcome = fail("cat", path + ": is a directory");
            }
        }
        return outcome;
    }

    private Outcome tree(List<String> args) {
        if (args.size() > 1) {
            return fail("tree", "too many arguments: usage " + Command.TREE.usage);
        }
        String path = args.isEmpty() ? "." : args.get(0);
        Optional<ShellNode> node = lookup(path);
        if (node.isEmpty()) {
            return fail("tree", path + ": no such file or directory");
        }
        List<String> components = ShellPaths.resolve(cwd, path);
        String name = components.isEmpty() ? "/" : components.get(components.size() - 1);
        printTree(name, node.get(), "");
        return Outcome.OK;
    }

    private void printTree(String name, ShellNode node, String indent) {
        if (node instanceof ShellNode.File file) {
            out.println(indent + name + ": " + file.text());
            return;
        }
        out.println(indent + (name.equals("/") ? name : name + "/"));
        // One child at a time: a lazy directory's subtree is made while it is printed, and dropped after.
        ShellNode.Directory directory = (ShellNode.Directory) node;
        for (String child : directory.names()) {
            printTree(child, directory.child(child), indent + "  ");
        }
    }

    private Outcome find(List<String> args) {
        if (args.size() > 1) {
            return fail("find", "too many arguments: usage " + Command.FIND.usage);
        }
        String path = args.isEmpty() ? "." : args.get(0);
        Optional<ShellNode> node = lookup(path);
        if (node.isEmpty()) {
            return fail("find", path + ": no such file or directory");
        }
        printPaths(ShellPaths.resolve(cwd, path), node.get());
        return Outcome.OK;
    }

    private void printPaths(List<String> components, ShellNode node) {
        out.println(ShellPaths.format(components));
        if (node instanceof ShellNode.Directory directory) {
            for (String name : directory.names()) {
                List<String> childComponents = new ArrayList<>(components);
                childComponents.add(name);
                printPaths(childComponents, directory.child(name));
            }
        }
    }

    private Outcome cd(List<String> args) {
        if (args.size() > 1) {
            return fail("cd", "too many arguments: usage " + Command.CD.usage);
        }
        String path = args.isEmpty() ? "/" : args.get(0);
        List<String> target = ShellPaths.resolve(cwd, path);
        Optional<ShellNode> node = tree.find(target);
        if (node.isEmpty()) {
            return fail("cd", path + ": no such file or directory");
        }
        if (!(node.get() instanceof ShellNode.Directory)) {
            return fail("cd", path + ": not a directory");
        }
        cwd = List.copyOf(target);
        return Outcome.OK;
    }

    private Outcome history() {
        for (int i = 0; i < history.size(); i++) {
            out.printf("%4d  %s%n", i + 1, history.get(i));
        }
        return Outcome.OK;
    }

    private Outcome help() {
        int width = 0;
        for (Command command : Command.values()) {
            width = Math.max(width, command.usage.length());
        }
        for (Command command : Command.values()) {
            out.printf("%-" + (width + 2) + "s%s%n", command.usage, command.description);
        }
        return Outcome.OK;
    }

    private Optional<ShellNode> lookup(String path) {
        return tree.find(ShellPaths.resolve(cwd, path));
    }

    private boolean noArguments(String command, List<String> args) {
        if (!args.isEmpty()) {
            fail(command, "takes no arguments");
            return false;
        }
        return true;
    }

    private Outcome print(String line) {
        out.println(line);
        return Outcome.OK;
    }

    private Outcome fail(String command, String problem) {
        err.println(command + ": " + problem);
        return Outcome.FAILED;
    }
}
