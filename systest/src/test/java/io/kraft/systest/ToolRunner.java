package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

/**
 * Runs command-line tools as processes, one after another, each named by its turn; each must exit 0. Kafka's tools
 * map one class-data archive, which the first tool run of the build writes ({@link ClassDataArchives}).
 */
final class ToolRunner {
    private final ProcessRegistry processes;
    private final Duration wait;
    private final ClassDataArchives.ToolsArchive toolsArchive;
    private int runs;

    ToolRunner(ProcessRegistry processes, Duration wait) {
        this.processes = processes;
        this.wait = wait;
        this.toolsArchive = ClassDataArchives.forKafkaTools(Distribution.logsRoot().resolveSibling("cds"),
                Distribution.kafkaToolsClasspath());
    }

    /** A process name for the next run of {@code tool}. */
    String nextName(String tool) {
        return "tool-" + (++runs) + "-" + tool;
    }

    /** Runs the tool, requires exit 0 and returns its standard output. */
    String run(JvmSpec spec) {
        if (!spec.onDistribution() && !spec.viaLauncherScript()) {
            spec = spec.withJvmFlags(toolsArchive.flagsForNextRun().toArray(String[]::new));
        }
        JvmProcess process = processes.run(spec, wait);
        toolsArchive.runExited();
        int status = process.waitForExit(wait);
        assertEquals(0, status, spec.mainClass() + " " + spec.args() + " exited " + status + process.describeLogs());
        return process.stdout();
    }
}
