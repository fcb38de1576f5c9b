package io.kraft.systest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Launches JVMs for a test and guarantees they end: {@link #close} (or, as a JUnit extension
 * registered on an instance field, the end of each test) stops every process still running, even when
 * the test failed; a JVM shutdown hook kills whatever is left if the test JVM itself goes down.
 * Logs go to {@code target/systest-logs/<test class>/<test method>/}.
 */
public final class ProcessRegistry implements AutoCloseable, BeforeEachCallback, AfterEachCallback {
    private static final Duration CLEANUP_GRACE = Duration.ofSeconds(10);
    private static final Set<JvmProcess> everyLiveProcess = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> everyLiveProcess.forEach(JvmProcess::destroyNow), "systest-process-reaper"));
    }

    private final Map<String, JvmProcess> processes = new LinkedHashMap<>();
    private Path logDir;

    /** A registry writing logs under the given directory. */
    public ProcessRegistry(Path logDir) {
        this.logDir = logDir;
    }

    /** A registry for use as a JUnit extension; each test gets its own log directory. */
    public static ProcessRegistry forTests() {
        return new ProcessRegistry(Distribution.logsRoot().resolve("unnamed"));
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        logDir = Distribution.logsRoot()
                .resolve(context.getRequiredTestClass().getSimpleName())
                .resolve(context.getRequiredTestMethod().getName());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    /** Where this registry's process logs go. */
    public synchronized Path logDir() {
        return logDir;
    }

    /**
     * Launches a JVM; its name must be unique in this registry.
     *
     * @throws IllegalArgumentException if the name is taken
     */
    public synchronized JvmProcess start(JvmSpec spec) {
        if (processes.containsKey(spec.name())) {
            throw new IllegalArgumentException("a process named " + spec.name() + " was already started");
        }
        Path stdoutLog = logDir.resolve(spec.name() + ".stdout.log");
        Path stderrLog = logDir.resolve(spec.name() + ".stderr.log");
        List<String> command = spec.command(Distribution.jar());
        try {
            Files.createDirectories(logDir);
            // The command line heads the stderr log, so a failure can be re-run by hand.
            Files.writeString(stderrLog, "# " + String.join(" ", command) + "\n");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(stdoutLog.toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(stderrLog.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(spec.input() != null ? spec.input().toFile()
                            : new java.io.File("/dev/null")));
            builder.environment().putAll(spec.environment());
            if (spec.workingDir() != null) {
                builder.directory(spec.workingDir().toFile());
            }
            JvmProcess process = new JvmProcess(spec.name(), builder.start(), stdoutLog, stderrLog);
            processes.put(spec.name(), process);
            everyLiveProcess.add(process);
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot launch " + spec.name() + ": " + String.join(" ", command), e);
        }
    }

    /** Runs a JVM to completion and returns it, exited. */
    public JvmProcess run(JvmSpec spec, Duration timeout) {
        JvmProcess process = start(spec);
        process.waitForExit(timeout);
        return process;
    }

    /** Every process started here, in start order. */
    public synchronized List<JvmProcess> processes() {
        return List.copyOf(processes.values());
    }

    /** Ends every process still running (SIGTERM, then SIGKILL after a grace period). */
    @Override
    public synchronized void close() {
        List<JvmProcess> toEnd = new ArrayList<>(processes.values());
        // Signal all first, then wait, so that the grace periods overlap.
        toEnd.forEach(JvmProcess::beginEnd);
        for (JvmProcess process : toEnd) {
            process.awaitEnd(CLEANUP_GRACE);
            everyLiveProcess.remove(process);
        }
        processes.clear();
    }
}
