package io.kraft.systest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One launched JVM: its stdout and stderr go to {@code <name>.stdout.log} and {@code <name>.stderr.log};
 * it can be stopped (SIGTERM), killed (SIGKILL), paused (SIGSTOP) and resumed (SIGCONT). Obtain one
 * from {@link ProcessRegistry#start}, which also cleans it up.
 */
public final class JvmProcess {
    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);
    private static final int TAIL_LINES = 30;

    private final String name;
    private final Process process;
    private final Path stdoutLog;
    private final Path stderrLog;
    private volatile boolean paused;

    JvmProcess(String name, Process process, Path stdoutLog, Path stderrLog) {
        this.name = name;
        this.process = process;
        this.stdoutLog = stdoutLog;
        this.stderrLog = stderrLog;
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public boolean isPaused() {
        return paused && process.isAlive();
    }

    public Path stdoutLog() {
        return stdoutLog;
    }

    public Path stderrLog() {
        return stderrLog;
    }

    /** Everything the process wrote to stdout so far. */
    public String stdout() {
        return read(stdoutLog);
    }

    /** Everything the process wrote to stderr so far. */
    public String stderr() {
        return read(stderrLog);
    }

    /**
     * Waits for the process to end by itself.
     *
     * @return its exit code
     * @throws AssertionError with the log tails if it is still running after the timeout
     */
    public int waitForExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(name + " still running after " + timeout + describeLogs());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + name, e);
        }
    }

    /**
     * Sends SIGTERM (the JVM runs its shutdown hooks) and waits for the exit. A paused process is
     * resumed first, since a stopped process only acts on SIGTERM once continued.
     *
     * @return the exit code (143 for a JVM ended by SIGTERM)
     */
    public int stop(Duration timeout) {
        if (isPaused()) {
            resume();
        }
        process.destroy();
        return waitForExit(timeout);
    }

    /** SIGKILL: the process ends at once, without shutdown hooks; its sockets are closed by the kernel. */
    public int kill(Duration timeout) {
        process.destroyForcibly();
        paused = false;
        return waitForExit(timeout);
    }

    /** SIGSTOP: the process freezes, its sockets stay open but nothing answers. */
    public void pause() {
        signal("STOP");
        paused = true;
    }

    /** SIGCONT: a paused process carries on. */
    public void resume() {
        signal("CONT");
        paused = false;
    }

    /**
     * Waits until a line of stdout or stderr matches the regex (anywhere in the line).
     *
     * @return the match, for its groups
     * @throws AssertionError with the log tails if the process exits first or the timeout passes
     */
    public MatchResult waitForLogLine(String regex, Duration timeout) {
        Pattern pattern = Pattern.compile(regex);
        long deadlineNanos = System.nanoTime() + timeout.toNanos();
        while (true) {
            // Check liveness before reading, so that a line written just before the exit is still seen.
            boolean alive = process.isAlive();
            MatchResult match = find(pattern, stdout());
            if (match == null) {
                match = find(pattern, stderr());
            }
            if (match != null) {
                return match;
            }
            if (!alive) {
                throw new AssertionError(name + " exited with " + process.exitValue() + " before logging a line matching /"
                        + regex + "/" + describeLogs());
            }
            if (System.nanoTime() - deadlineNanos > 0) {
                throw new AssertionError(name + " logged no line matching /" + regex + "/ within " + timeout + describeLogs());
            }
            sleep(POLL_INTERVAL);
        }
    }

    /** The last lines of both logs, for failure messages. */
    public String describeLogs() {
        return "\n--- " + stdoutLog + " (tail) ---\n" + tail(stdout()) + "\n--- " + stderrLog + " (tail) ---\n" + tail(stderr());
    }

    private static MatchResult find(Pattern pattern, String text) {
        for (String line : text.split("\n")) {
            Matcher matcher = pattern.matcher(line);
            if (matcher.find()) {
                return matcher.toMatchResult();
            }
        }
        return null;
    }

    private void signal(String signal) {
        if (!process.isAlive()) {
            throw new IllegalStateException("cannot send SIG" + signal + " to " + name + ": it has exited");
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed: " + output.strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted sending SIG" + signal + " to " + name, e);
        }
    }

    /** Starts ending the process whatever its state, for cleanup; {@link #awaitEnd} finishes it. */
    void beginEnd() {
        if (!process.isAlive()) {
            return;
        }
        if (paused) {
            // SIGKILL works on a stopped process, but SIGTERM would wait for SIGCONT.
            process.destroyForcibly();
        } else {
            process.destroy();
        }
    }

    /** Waits for the end begun by {@link #beginEnd}, sending SIGKILL if the process lingers past the grace. */
    void awaitEnd(Duration grace) {
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** SIGKILL without waiting, for the JVM shutdown hook. */
    void destroyNow() {
        process.destroyForcibly();
    }

    private static String read(Path log) {
        try {
            // Lenient decoding: a multi-byte character may be half written; the next poll sees it whole.
            return new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
        } catch (NoSuchFileException notYet) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log, e);
        }
    }

    private static String tail(String text) {
        List<String> lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    @Override
    public String toString() {
        return name + "(pid " + process.pid() + (process.isAlive() ? "" : ", exited") + ")";
    }
}
