package io.kraft.systest;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to launch in a new JVM: the distribution's own main ({@code java -jar}), a named main class on a
 * classpath made of the distribution jar plus extra entries, or {@code bin/kraft-cli} itself with the JVM
 * flags and environment it chooses ({@code jvmFlags} then go to it in {@code KRAFT_OPTS}), or an Apache Kafka tool on
 * Kafka's own classpath. A JVM on the distribution maps the build's class-data archive as the script does
 * ({@link ClassDataArchives}). Standard input is {@code input}, or empty. Immutable; the with-methods return copies.
 */
public record JvmSpec(String name, List<Path> extraClasspath, String mainClass, List<String> jvmFlags,
                      List<String> args, Path workingDir, boolean viaLauncherScript, Path input,
                      boolean onDistribution) {
    /**
     * Small heap, serial GC and the client compiler: many JVMs share 2 cores in these tests, and they
     * start faster so.
     */
    public static final List<String> DEFAULT_JVM_FLAGS = List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Djava.net.preferIPv4Stack=true", "--enable-native-access=ALL-UNNAMED");

    public JvmSpec {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("process name must be usable as a file name: " + name);
        }
        extraClasspath = List.copyOf(extraClasspath);
        jvmFlags = List.copyOf(jvmFlags);
        args = List.copyOf(args);
    }

    /** {@code kraft-cli <args>} from the distribution jar. */
    public static JvmSpec kraftCli(String name, String... args) {
        return new JvmSpec(name, List.of(), null, DEFAULT_JVM_FLAGS, List.of(args), null, false, null, true);
    }

    /** {@code bin/kraft-cli <args>} as a user runs it: the script's default heap, flags and environment. */
    public static JvmSpec launcherScript(String name, String... args) {
        return new JvmSpec(name, List.of(), null, List.of(), List.of(args), null, true, null, true);
    }

    /**
     * A main class from this module's test classes, with the distribution jar on the classpath too, so
     * test programs run against exactly what ships.
     */
    public static JvmSpec testMain(String name, Class<?> mainClass, String... args) {
        return new JvmSpec(name, List.of(Distribution.testClasses()), mainClass.getName(), DEFAULT_JVM_FLAGS,
                List.of(args), null, false, null, true);
    }

    /**
     * An Apache Kafka 4.4 tool's main class ({@code org.apache.kafka.tools.TopicCommand}, ...) on Kafka's own
     * classpath (the jars this module's build resolved for it), without the distribution.
     */
    public static JvmSpec kafkaTool(String name, String mainClass, String... args) {
        return new JvmSpec(name, Distribution.kafkaToolsClasspath(), mainClass, DEFAULT_JVM_FLAGS, List.of(args), null,
                false, null, false);
    }

    /** The same, run in another working directory (relative paths in configs resolve against it). */
    public JvmSpec inDirectory(Path directory) {
        return new JvmSpec(name, extraClasspath, mainClass, jvmFlags, args, directory, viaLauncherScript, input,
                onDistribution);
    }

    /** The same, reading its standard input from {@code file}. */
    public JvmSpec withInput(Path file) {
        return new JvmSpec(name, extraClasspath, mainClass, jvmFlags, args, workingDir, viaLauncherScript, file,
                onDistribution);
    }

    /** The same with more JVM flags after the defaults (a later flag wins). */
    public JvmSpec withJvmFlags(String... flags) {
        List<String> all = new ArrayList<>(jvmFlags);
        all.addAll(List.of(flags));
        return new JvmSpec(name, extraClasspath, mainClass, all, args, workingDir, viaLauncherScript, input,
                onDistribution);
    }

    /** Environment variables to set beyond the test JVM's own. */
    public Map<String, String> environment() {
        return viaLauncherScript && !jvmFlags.isEmpty() ? Map.of("KRAFT_OPTS", String.join(" ", jvmFlags)) : Map.of();
    }

    /** The full command line. */
    public List<String> command(Path distributionJar) {
        List<String> command = new ArrayList<>();
        if (viaLauncherScript) {
            // The script runs the same jar (it finds cli/target/kraft-cli-*-all.jar) and execs java: same pid.
            command.add("bash");
            command.add(Distribution.launcherScript().toString());
            command.addAll(args);
            return command;
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (onDistribution) {
            // before the spec's flags, so that a test's own -Xshare or archive flag wins
            command.addAll(ClassDataArchives.forDistribution(distributionJar));
        }
        command.addAll(jvmFlags);
        if (mainClass == null) {
            command.add("-jar");
            command.add(distributionJar.toString());
        } else {
            List<String> classpath = new ArrayList<>();
            if (onDistribution) {
                classpath.add(distributionJar.toString());
            }
            extraClasspath.forEach(entry -> classpath.add(entry.toString()));
            command.add("-cp");
            command.add(String.join(File.pathSeparator, classpath));
            command.add(mainClass);
        }
        command.addAll(args);
        return command;
    }
}
