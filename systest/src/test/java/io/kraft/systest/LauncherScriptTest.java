package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/kraft-cli as a user runs it: from any working directory, with the jar already built. */
class LauncherScriptTest {
    @TempDir
    Path workDir;

    private record Result(int exitCode, String stdout, String stderr) {
    }

    private Result runScript(Map<String, String> environment, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("bash", Distribution.launcherScript().toString()));
        command.addAll(List.of(args));
        Path stdout = workDir.resolve("stdout.log");
        Path stderr = workDir.resolve("stderr.log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("bin/kraft-cli " + String.join(" ", args) + " still running after 60 s");
        }
        return new Result(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8),
                Files.readString(stderr, StandardCharsets.UTF_8));
    }

    @Test
    void runsTheDistributionFromAnyWorkingDirectory() throws Exception {
        Distribution.jar(); // fails with how to build it, rather than letting the script build it mid-test
        Result result = runScript(Map.of(), "random-uuid");
        assertEquals(0, result.exitCode(), result.stderr());
        assertTrue(MetaProperties.isValidUuid(result.stdout().strip()), result.stdout());
    }

    @Test
    void onlyAStartWritesTheClassDataArchiveAndNothingAboutItIsPrinted() throws Exception {
        Distribution.jar();
        Path cache = workDir.resolve("cache");
        Result result = runScript(Map.of("KRAFT_CACHE_DIR", cache.toString()), "random-uuid");
        assertEquals(0, result.exitCode(), result.stderr());
        assertEquals("", result.stderr());
        try (var files = Files.list(cache)) {
            assertEquals(List.of(), files.toList(), "an archive is written by a start only");
        }
    }

    @Test
    void theFirstCommandMapsTheArchiveTheBuildWrote() throws Exception {
        Path archives = Distribution.jar().getParent().resolve("cds");
        Path cache = workDir.resolve("cache");
        // The Java that ran the build (and so its training start), whatever java the PATH finds first.
        Result result = runScript(Map.of("KRAFT_CACHE_DIR", cache.toString(), "KRAFT_OPTS", "-Xlog:class+load",
                "JAVA_HOME", System.getProperty("java.home")), "random-uuid");
        assertEquals(0, result.exitCode(), result.stderr());
        // "(top)": from the dynamic archive layered over the JDK's, which only the build's training start wrote.
        assertTrue(result.stdout().contains("io.kraft.cli.KraftCli source: shared objects file (top)"),
                "the cli's classes are not mapped from " + archives);
        try (var files = Files.list(cache)) {
            assertEquals(List.of(), files.toList(), "nothing is written when the build's archive serves");
        }
    }

    @Test
    void heapOptsReplaceTheDefaultHeapAndArgumentsPassThrough() throws Exception {
        Distribution.jar();
        Result result = runScript(Map.of("KRAFT_HEAP_OPTS", "-Xmx48m", "KRAFT_OPTS", "-XshowSettings:vm"),
                "format", "--config", "server.properties", "--cluster-id", MetaProperties.randomUuid(), "--bogus");
        assertEquals(2, result.exitCode(), result.stderr());
        assertTrue(result.stderr().lines().anyMatch(line -> line.matches("\\s*Max\\. Heap Size.*: 48\\.00M")), result.stderr());
        assertTrue(result.stderr().contains("Unknown option: '--bogus'"), result.stderr());
    }
}
