package io.kraft.systest.readme;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the page's Maven commands are checked within a normal build's time: each runs exactly as written with a few
 * arguments appended that only shrink the work (a later {@code -D} wins over an earlier one), and its output must show
 * that the benchmark or simulation really ran with them.
 *
 * @param command        the page's command without its comment
 * @param appended       what is added after it
 * @param expectedOutput a line fragment the run must print
 */
record MavenSmoke(String command, List<String> appended, String expectedOutput) {
    /** The build that runs this test: running it again from inside would never end. */
    static final String THE_BUILD_ITSELF = "mvn -B verify";
    /** The storage benchmark's smallest run: one benchmark, no fork, one short measurement. */
    static final String DEFAULT_JMH_INCLUDE = "LogAppendBenchmark.logAppend";
    private static final Pattern JMH_ARGS = Pattern.compile("-Dbench=\"([^\"]*)\"");

    /** The command line to run. */
    String commandLine() {
        return appended.isEmpty() ? command : command + " " + String.join(" ", appended);
    }

    /**
     * The check for one of the page's Maven commands, empty for {@link #THE_BUILD_ITSELF}.
     *
     * @throws AssertionError for a Maven command this class does not know how to shrink: add it here
     */
    static Optional<MavenSmoke> of(String command) {
        if (command.equals(THE_BUILD_ITSELF)) {
            return Optional.empty();
        }
        if (command.startsWith(THE_BUILD_ITSELF + " -Pfuzz")) {
            // the campaign's test runs in every build already, on a seeded slice (FuzzCampaignTest)
            return Optional.empty();
        }
        if (command.contains(" -Dtest=NodeMemoryUnderAbuseProcessTest ")) {
            // a system test of the normal build, which runs it already
            return Optional.empty();
        }
        if (command.contains(" -Pbench ")) {
            return Optional.of(new MavenSmoke(command, List.of("-Dbench=\"" + smallJmhRun(command) + "\""),
                    "== kraft storage benchmark summary"));
        }
        if (command.contains(" -Pimage-bench ")) {
            // the image benchmarks' largest parameters take seconds to set up: the smallest image shows they run
            String small = smallJmhRun(command) + " -p topics=1000 -p size=1000";
            return Optional.of(new MavenSmoke(command, List.of("-Dbench=\"" + small + "\""), "# Run complete."));
        }
        if (command.contains(" -Pmetrics-bench ")) {
            return Optional.of(new MavenSmoke(command, List.of("-Dbench=\"" + smallJmhRun(command) + "\""),
                    "# Run complete."));
        }
        if (command.contains(" -Pquorum-bench ")) {
            return Optional.of(new MavenSmoke(command, List.of("-Dbench.records=2000"), "throughput: 2000 records"));
        }
        if (command.contains(" -Pcontroller-bench ")) {
            return Optional.of(new MavenSmoke(command, List.of("-Dbench.topics=20", "-Dbench.totalPartitions=400"),
                    "created 20 topics"));
        }
        if (command.contains(" -Psnapshot-bench ")) {
            return Optional.of(new MavenSmoke(command, List.of("-Dbench.totalPartitions=2000", "-Dbench.runs=1"),
                    "median: records"));
        }
        if (command.contains(" -Ptxn-bench ")) {
            return Optional.of(new MavenSmoke(command, List.of("-Dbench.seconds=1"), "committed transactions/s"));
        }
        if (command.contains(" -Ptls-bench ")) {
            return Optional.of(new MavenSmoke(command, List.of("-Dbench.records=2000", "-Dbench.rounds=1"),
                    "broker CPU ms/MB"));
        }
        if (command.contains(" -Dtest=RandomizedSimulationTest ")) {
            return Optional.of(new MavenSmoke(command, List.of("-Dkraft.seeds=2"), "simulated "));
        }
        if (command.contains(" -Dtest=MembershipSimulationTest ")) {
            // the page's command replays one seed (-Dkraft.seed), which is small already
            return Optional.of(new MavenSmoke(command, List.of(), "simulated 1 membership seeds"));
        }
        if (command.contains(" -Dtest=RandomizedControllerSimulationTest ")) {
            return Optional.of(new MavenSmoke(command, List.of("-Dkraft.seeds=2"), "simulated 2 controller clusters"));
        }
        throw new AssertionError("README.md shows a Maven command this test cannot check in a short time: " + command
                + "\n(teach " + MavenSmoke.class.getName() + " how to run it small)");
    }

    /**
     * JMH arguments for a run of a second or two: the page's benchmark selection (its arguments that are not options,
     * every option there taking one value) or the cheapest benchmark, no fork, no warm-up, one 100 ms iteration.
     */
    static String smallJmhRun(String command) {
        List<String> includes = new ArrayList<>();
        Matcher given = JMH_ARGS.matcher(command);
        if (given.find()) {
            String[] words = given.group(1).trim().split("\\s+");
            for (int i = 0; i < words.length; i++) {
                if (words[i].startsWith("-")) {
                    i++; // its value
                } else if (!words[i].isEmpty()) {
                    includes.add(words[i]);
                }
            }
        }
        if (includes.isEmpty()) {
            includes.add(DEFAULT_JMH_INCLUDE);
        }
        return "-f 0 -wi 0 -i 1 -r 100ms " + String.join(" ", includes);
    }
}
