package io.kraft.systest.readme;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs command lines with bash, as a user pastes them into a terminal: in a working directory, with some environment
 * variables, stdout and stderr to numbered log files (so a failure can be read, and re-run by hand from the command
 * line heading the log).
 */
final class Shell {
    private static final int TAIL_LINES = 40;

    private final Path workingDir;
    private final Path logDir;
    private final Map<String, String> environment;
    private final AtomicInteger counter;

    /** What a finished command did. */
    record Result(String command, int exitCode, String stdout, String stderr, Duration took) {
        /** The command, its exit code and the tails of its output, for an assertion message. */
        String describe() {
            return "\n$ " + command + "\nexit code " + exitCode + " after " + took.toMillis() + " ms"
                    + "\n--- stdout (tail) ---\n" + tail(stdout) + "\n--- stderr (tail) ---\n" + tail(stderr);
        }
    }

    Shell(Path workingDir, Path logDir, Map<String, String> environment, AtomicInteger counter) {
        this.workingDir = workingDir;
        this.logDir = logDir;
        this.environment = Map.copyOf(environment);
        this.counter = counter;
    }

    /** The same shell with more environment variables. */
    Shell withEnvironment(Map<String, String> more) {
        Map<String, String> all = new HashMap<>(environment);
        all.putAll(more);
        return new Shell(workingDir, logDir, all, counter);
    }

    /**
     * Runs the command to its end, feeding it {@code stdin}.
     *
     * @throws AssertionError with the output so far if it runs longer than {@code timeout}
     */
    Result run(String command, String stdin, Duration timeout) {
        Started started = start(command, stdin);
        try {
            if (!started.process().waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                started.process().descendants().forEach(ProcessHandle::destroyForcibly);
                started.process().destroyForcibly();
                throw new AssertionError("still running after " + timeout + ": " + started.result().describe());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + command, e);
        }
        return started.result();
    }

    /** Starts the command in the background; see {@link Started}. */
    Started start(String command, String stdin) {
        int number = counter.incrementAndGet();
        String slug = command.replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-|-$", "");
        String name = String.format("%02d-%s", number, slug.substring(0, Math.min(60, slug.length())));
        Path stdout = logDir.resolve(name + ".stdout.log");
        Path stderr = logDir.resolve(name + ".stderr.log");
        Path input = logDir.resolve(name + ".stdin");
        try {
            Files.createDirectories(logDir);
            Files.writeString(input, stdin);
            Files.writeString(stderr, "# (cd " + workingDir + " && " + command.replace("\n", "\n# ") + ")\n");
            ProcessBuilder builder = new ProcessBuilder("bash", "-c", command).directory(workingDir.toFile())
                    .redirectOutput(stdout.toFile()).redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()))
                    .redirectInput(input.toFile());
            builder.environment().putAll(environment);
            return new Started(command, builder.start(), stdout, stderr, System.nanoTime());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run bash -c " + command, e);
        }
    }

    /** A command running in the background, with its output as far as it got. */
    record Started(String command, Process process, Path stdoutLog, Path stderrLog, long startNanos) {
        String stdout() {
            return read(stdoutLog);
        }

        String stderr() {
            return read(stderrLog);
        }

        /** What it did so far; the exit code is -1 while it runs. */
        Result result() {
            int exitCode = process.isAlive() ? -1 : process.exitValue();
            return new Result(command, exitCode, stdout(), stderr(), Duration.ofNanos(System.nanoTime() - startNanos));
        }

        /** Kills the command and whatever it started, for cleanup. */
        void destroy() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    /** The bash that runs the commands must find them where the page says: this returns PATH with a directory first. */
    static String pathWith(Path first) {
        return first + File.pathSeparator + System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static String tail(String text) {
        List<String> lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
    }
}
