package io.kraft.systest;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Where the built distribution (the shaded kraft-cli jar) and the systest classes are. */
public final class Distribution {
    /** System property naming the jar; the systest pom points it at cli/target/kraft-cli-VERSION-all.jar. */
    public static final String JAR_PROPERTY = "kraft.distribution.jar";
    /** System property naming the bin/kraft-cli launcher script. */
    public static final String BIN_PROPERTY = "kraft.distribution.bin";
    /** System property naming this module's compiled test classes (for test-only main classes). */
    public static final String CLASSES_PROPERTY = "kraft.systest.classes";
    /** System property naming the directory that receives every process's log files. */
    public static final String LOGS_PROPERTY = "kraft.systest.logs";
    /** A file listing Apache Kafka's tools and their dependencies, as the build resolved them. */
    public static final String KAFKA_TOOLS_CLASSPATH_PROPERTY = "kraft.kafka.tools.classpath";

    private Distribution() {
    }

    /**
     * The runnable distribution jar.
     *
     * @throws IllegalStateException if it has not been built
     */
    public static Path jar() {
        String configured = System.getProperty(JAR_PROPERTY);
        if (configured != null) {
            Path jar = Path.of(configured).toAbsolutePath().normalize();
            if (Files.isRegularFile(jar)) {
                return jar;
            }
            throw notBuilt(jar.toString());
        }
        // Outside Maven (e.g. an IDE run from the systest directory) look where the cli module builds it.
        Path target = Path.of("..", "cli", "target").toAbsolutePath().normalize();
        if (Files.isDirectory(target)) {
            try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, "kraft-cli-*-all.jar")) {
                for (Path jar : jars) {
                    return jar;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + target, e);
            }
        }
        throw notBuilt(target.resolve("kraft-cli-*-all.jar").toString());
    }

    /** The bin/kraft-cli launcher script of the repository. */
    public static Path launcherScript() {
        return Path.of(System.getProperty(BIN_PROPERTY, "../bin/kraft-cli")).toAbsolutePath().normalize();
    }

    /** The repository's root directory, where README.md and bin/ are. */
    public static Path repositoryRoot() {
        return launcherScript().getParent().getParent();
    }

    /** This module's compiled test classes, to put test-only main classes next to the distribution. */
    public static Path testClasses() {
        return Path.of(System.getProperty(CLASSES_PROPERTY, "target/test-classes")).toAbsolutePath().normalize();
    }

    /**
     * Apache Kafka 4.4's tools and their dependencies (the jars of this module's test classpath that are not this
     * project's own), for running Kafka's command-line tools against a node.
     */
    public static List<Path> kafkaToolsClasspath() {
        Path file = Path.of(System.getProperty(KAFKA_TOOLS_CLASSPATH_PROPERTY, "target/kafka-tools.classpath"));
        try {
            String text = Files.readString(file).trim();
            return Arrays.stream(text.split(File.pathSeparator)).filter(entry -> !entry.isBlank()).map(Path::of)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("no Kafka tools classpath at " + file.toAbsolutePath()
                    + ": run the systest module through Maven (its build writes it)", e);
        }
    }

    /** The root directory of process logs, target/systest-logs under Maven. */
    public static Path logsRoot() {
        return Path.of(System.getProperty(LOGS_PROPERTY, "target/systest-logs")).toAbsolutePath().normalize();
    }

    private static IllegalStateException notBuilt(String where) {
        return new IllegalStateException("the kraft distribution jar " + where
                + " does not exist: build it with 'mvn -B -q -DskipTests package -pl cli -am'");
    }
}
