package io.kraft.systest;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Class-data sharing archives for the JVMs these tests launch, so that each maps its classes instead of loading and
 * verifying them again (seconds per start on a loaded 2-core machine). A JVM of the distribution maps the archive the
 * build wrote for the jar ({@code cli/target/cds/}, as {@code bin/kraft-cli} does); Apache Kafka's tools share one
 * written by the first tool run of the build. {@code -Xshare:auto}: a JVM that cannot use an archive (another Java, a
 * rebuilt jar) runs without it, silently. {@code -Dkraft.systest.cds=off} leaves archives out (to compare, or to rule
 * them out).
 */
final class ClassDataArchives {
    /** Maps an archive if it can; never logs about it (the tests read the processes' output). */
    private static final List<String> MAP_QUIETLY = List.of("-Xshare:auto", "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    static final String SWITCH_PROPERTY = "kraft.systest.cds";

    private ClassDataArchives() {
    }

    /** The flags that map the build's archive of {@code jar}, or none when the build wrote none. */
    static List<String> forDistribution(Path jar) {
        if (off()) {
            return List.of();
        }
        return buildArchiveOf(jar).map(ClassDataArchives::mapping).orElse(List.of());
    }

    /**
     * The archive {@code cli/src/build/cds-training.sh} wrote for this jar build: {@code bin/kraft-cli} names it
     * {@code kraft-cli-<size>-<mtime s>-<jvm>.jsa}; any JVM part will do, since a foreign one is skipped at start.
     */
    static Optional<Path> buildArchiveOf(Path jar) {
        Path directory = jar.getParent().resolve("cds");
        if (!Files.isDirectory(directory)) {
            return Optional.empty();
        }
        try {
            String jarId = Files.size(jar) + "-" + Files.getLastModifiedTime(jar).toMillis() / 1000;
            try (DirectoryStream<Path> archives = Files.newDirectoryStream(directory, "kraft-cli-" + jarId + "-*.jsa")) {
                for (Path archive : archives) {
                    return Optional.of(archive);
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot look for a class-data archive in " + directory, e);
        }
    }

    /** The archive of Kafka's tools: one per tools classpath (its jars' names, sizes and times), in {@code dir}. */
    static ToolsArchive forKafkaTools(Path dir, List<Path> classpath) {
        StringBuilder identity = new StringBuilder();
        for (Path entry : classpath) {
            identity.append(entry).append(File.pathSeparatorChar);
            try {
                FileTime modified = Files.getLastModifiedTime(entry);
                identity.append(Files.size(entry)).append('-').append(modified.toMillis());
            } catch (IOException e) {
                identity.append("absent"); // the tool reports a missing jar better than this could
            }
        }
        String name = "kafka-tools-" + Integer.toHexString(identity.toString().hashCode()) + ".jsa";
        return new ToolsArchive(dir.resolve(name));
    }

    private static boolean off() {
        return "off".equals(System.getProperty(SWITCH_PROPERTY));
    }

    private static List<String> mapping(Path archive) {
        List<String> flags = new ArrayList<>(MAP_QUIETLY);
        flags.add("-XX:SharedArchiveFile=" + archive);
        return flags;
    }

    /**
     * One archive that the first run without it writes as it exits (to a file of its own, moved into place after, so
     * a torn file is never mapped), and that later runs map. For runs one after another, as {@link ToolRunner}'s.
     */
    static final class ToolsArchive {
        private final Path archive;
        private Path beingWritten;

        ToolsArchive(Path archive) {
            this.archive = archive;
        }

        /** The flags for the next run: map the archive, or write it when there is none yet. */
        List<String> flagsForNextRun() {
            if (off()) {
                return List.of();
            }
            if (Files.isRegularFile(archive)) {
                return mapping(archive);
            }
            try {
                Files.createDirectories(archive.getParent());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create " + archive.getParent(), e);
            }
            beingWritten = archive.resolveSibling(archive.getFileName() + "." + UUID.randomUUID() + ".partial");
            List<String> flags = new ArrayList<>(MAP_QUIETLY);
            flags.add("-XX:ArchiveClassesAtExit=" + beingWritten);
            return flags;
        }

        /** After the run has exited: takes the archive it wrote, if it wrote one. */
        void runExited() {
            if (beingWritten == null) {
                return;
            }
            try {
                if (Files.isRegularFile(beingWritten)) {
                    Files.move(beingWritten, archive, StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot move " + beingWritten + " to " + archive, e);
            } finally {
                beingWritten = null;
            }
        }
    }
}
