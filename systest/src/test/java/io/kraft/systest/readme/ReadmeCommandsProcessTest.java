package io.kraft.systest.readme;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kraft.cli.KraftCli;
import io.kraft.storage.MetaProperties;
import io.kraft.systest.Distribution;
import io.kraft.systest.FreePorts;
import io.kraft.systest.readme.ReadmeBlocks.Command;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * README.md's commands as a new user types them: every line of its {@code sh} blocks runs with bash, as written, and
 * must work. The command line's run in a fresh directory laid out like the repository ({@code bin/} and the shipped
 * configurations): help, random-uuid and format, then {@code bin/kraft-cli start}, the client commands against that
 * node, the quorum commands, {@code kill <pid>} as the page says to stop it, metadata-shell on the stopped node, and
 * last the dedicated controller and broker the page formats. The Maven commands (benchmarks, simulations) run from the
 * repository with arguments appended that only make them small ({@link MavenSmoke}), in the background meanwhile; {@code bin/bench-vs-kafka} runs with
 * {@code --help}. The {@code text} blocks are synopses: the options they name must exist; {@code java} and {@code xml} blocks are
 * samples for an application's own build and tests.
 *
 * <p>Only two things are filled in: the page's ports 9092 and 9093 become free ones (in the commands and in the
 * configuration the node reads), and {@code <placeholders>} get fixed values.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReadmeCommandsProcessTest {
    private static final Duration CLI_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration MAVEN_TIMEOUT = Duration.ofMinutes(5);
    private static final Pattern PLACEHOLDER = Pattern.compile("<([a-z][a-z-]*)>");
    /** Blocks of code for readers to copy into their own projects (the testkit's), never run here. */
    private static final Set<String> SAMPLE_BLOCKS = Set.of("java", "xml");
    private static final Map<String, String> PLACEHOLDER_VALUES = Map.of("seed", "1",
            "cluster-id", MetaProperties.randomUuid());
    private static final String CLIENT_ADDRESS = "localhost:9092";
    private static final String CONTROLLER_ADDRESS = "localhost:9093";
    private static final String SHIPPED_CONFIGS = "cli/src/main/dist/config";
    /** The metadata-shell command that reads commands from stdin gets these. */
    private static final String SHELL_STDIN = "ls /topics\nexit\n";

    /** When a command of the page runs. */
    enum Phase {
        /** Before any node runs: help, random-uuid, format. */
        BEFORE_START,
        /** {@code bin/kraft-cli start}, kept running. */
        START,
        /** Against the running node. */
        RUNNING,
        /** On the stopped node's directories. */
        STOPPED,
        /** {@code bin/kraft-cli start --config ...}: the dedicated nodes, together, once the single node is gone. */
        DEDICATED,
        /** A Maven command, from the repository. */
        MAVEN,
        /** The comparison script, with --help. */
        SCRIPT
    }

    private static final Path REPOSITORY = Distribution.repositoryRoot();
    private static final AtomicInteger COMMANDS_RUN = new AtomicInteger();
    private static List<Command> commands;
    private static ExecutorService background;
    private static Future<List<String>> mavenFailures;

    @BeforeAll
    static void readThePageAndStartItsMavenCommands(@TempDir Path scratch) throws IOException {
        Distribution.jar(); // fails with how to build it, rather than letting bin/kraft-cli build it mid-test
        commands = ReadmeBlocks.commands(Files.readString(REPOSITORY.resolve("README.md")));
        deleteRecursively(logDir()); // the logs of an earlier run would mix with this one's
        Path mavenTemp = Files.createDirectories(scratch.resolve("tmp"));
        Shell maven = new Shell(REPOSITORY, logDir().resolve("maven"), Map.of(
                "PATH", Shell.pathWith(MavenInvocation.binDirectory()),
                // JMH takes a machine-wide lock in java.io.tmpdir: another benchmark on this machine must not fail ours
                "JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + mavenTemp), COMMANDS_RUN);
        List<Command> mavenCommands = commands.stream().filter(c -> c.blockType().equals("sh"))
                .filter(c -> phaseOf(c) == Phase.MAVEN).toList();
        background = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "readme-maven-commands");
            thread.setDaemon(true);
            return thread;
        });
        mavenFailures = background.submit(() -> runMavenCommands(maven, mavenCommands));
    }

    @AfterAll
    static void stopTheMavenCommands() {
        if (background != null) {
            background.shutdownNow();
        }
    }

    @Test
    @Order(1)
    void everyCodeBlockSaysWhatItIsAndEveryCommandIsOneThisTestRuns() {
        List<String> problems = new ArrayList<>();
        for (Command command : commands) {
            if (SAMPLE_BLOCKS.contains(command.blockType())) {
                continue;
            }
            if (!command.blockType().equals("sh") && !command.blockType().equals("text")) {
                problems.add(command + " (a '" + command.blockType() + "' block: use sh, text, java or xml)");
            } else if (command.blockType().equals("sh") && phaseOf(command) == null) {
                problems.add(command + " (not a command this test knows when to run: add it to phaseOf)");
            }
            Matcher placeholder = PLACEHOLDER.matcher(command.withoutComment());
            while (command.blockType().equals("sh") && placeholder.find()) {
                if (!PLACEHOLDER_VALUES.containsKey(placeholder.group(1))) {
                    problems.add(command + " (placeholder " + placeholder.group() + " has no test value)");
                }
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(commands.stream().anyMatch(c -> phaseOf(c) == Phase.START), "the page shows how to start a node");
    }

    @Test
    @Order(2)
    void theCommandLineWorksAsThePageShowsIt(@TempDir Path sandbox) throws IOException {
        int clientPort = FreePorts.next();
        int controllerPort = FreePorts.next();
        prepareSandbox(sandbox, clientPort, controllerPort);
        Shell shell = new Shell(sandbox, logDir().resolve("cli"), Map.of(
                // a small, quick-starting JVM per command: this test runs many of them
                "KRAFT_HEAP_OPTS", "-Xmx256m",
                "KRAFT_OPTS", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.net.preferIPv4Stack=true"), COMMANDS_RUN);

        for (Command command : commandsOf(Phase.BEFORE_START)) {
            check(command, shell.run(runnable(command, clientPort, controllerPort), "", CLI_TIMEOUT));
        }
        Command startCommand = commandsOf(Phase.START).get(0);
        Shell.Started node = shell.start(runnable(startCommand, clientPort, controllerPort), "");
        try {
            String pid = awaitLine(node, "stop with Ctrl-C or kill (\\d+)").group(1);
            assertTrue(node.stdout().contains("Formatted [./data/kraft-logs, ./data/metadata] with new cluster.id "),
                    node.result().describe());
            assertTrue(node.stdout().contains("kraft node 1 ready, listening: PLAINTEXT localhost:" + clientPort
                    + ", CONTROLLER localhost:" + controllerPort + " (first start)"), node.result().describe());
            awaitLine(node, "Broker 1 is unfenced");
            for (Command command : commandsOf(Phase.RUNNING)) {
                check(command, shell.run(runnable(command, clientPort, controllerPort), "", CLI_TIMEOUT));
            }
            // "Ctrl-C or kill <pid> (SIGTERM) closes it cleanly"
            Shell.Result kill = shell.run("kill " + pid, "", CLI_TIMEOUT);
            assertEquals(0, kill.exitCode(), kill.describe());
            await().atMost(CLI_TIMEOUT).until(() -> !node.process().isAlive());
            assertTrue(node.stderr().contains("Node 1 stopped"), node.result().describe());
        } finally {
            node.destroy();
        }
        for (Command command : commandsOf(Phase.STOPPED)) {
            check(command, shell.run(runnable(command, clientPort, controllerPort), SHELL_STDIN, CLI_TIMEOUT));
        }
        runTheDedicatedNodes(shell, clientPort, controllerPort);
        Files.delete(sandbox.resolve("bin")); // the link only: JUnit would warn that it leaves the target
    }

    /** Starts the page's dedicated nodes in its order, waits for the broker to be unfenced, then stops them. */
    private static void runTheDedicatedNodes(Shell shell, int clientPort, int controllerPort) {
        List<Shell.Started> nodes = new ArrayList<>();
        try {
            for (Command command : commandsOf(Phase.DEDICATED)) {
                Shell.Started node = shell.start(runnable(command, clientPort, controllerPort), "");
                nodes.add(node);
                awaitLine(node, "kraft node \\d+ ready, listening: .* \\(first start\\)");
            }
            assertEquals(2, nodes.size(), "a controller and a broker");
            awaitLine(nodes.get(1), "Broker 2 is unfenced");
            // the broker first, so that its controlled shutdown finds the controller
            for (int i = nodes.size() - 1; i >= 0; i--) {
                Shell.Started node = nodes.get(i);
                String pid = awaitLine(node, "stop with Ctrl-C or kill (\\d+)").group(1);
                Shell.Result kill = shell.run("kill " + pid, "", CLI_TIMEOUT);
                assertEquals(0, kill.exitCode(), kill.describe());
                await().atMost(CLI_TIMEOUT).until(() -> !node.process().isAlive());
            }
        } finally {
            nodes.forEach(Shell.Started::destroy);
        }
    }

    @Test
    @Order(3)
    void synopsesNameOnlyOptionsTheirCommandsHave() {
        CommandLine cli = KraftCli.commandLine();
        Pattern option = Pattern.compile("(?<![\\w-])--[a-z][a-z-]*");
        List<String> problems = new ArrayList<>();
        for (Command command : commands) {
            String text = command.withoutComment();
            if (!command.blockType().equals("text") || !text.startsWith("bin/kraft-cli ")) {
                continue;
            }
            String name = text.split("\\s+")[1];
            CommandLine subcommand = cli.getSubcommands().get(name);
            if (subcommand == null) {
                problems.add(command + " (no subcommand " + name + ")");
                continue;
            }
            Set<String> known = optionNames(subcommand);
            Matcher matcher = option.matcher(text);
            while (matcher.find()) {
                if (!known.contains(matcher.group())) {
                    problems.add(command + " (" + name + " has no option " + matcher.group() + ")");
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    @Order(4)
    void theBenchmarkSimulationAndScriptCommandsRun() throws Exception {
        Shell shell = new Shell(REPOSITORY, logDir().resolve("script"), Map.of(), COMMANDS_RUN);
        for (Command command : commandsOf(Phase.SCRIPT)) {
            String script = command.withoutComment().split("\\s+")[0];
            Shell.Result help = shell.run(script + " --help", "", CLI_TIMEOUT);
            assertEquals(0, help.exitCode(), help.describe());
            Matcher named = Pattern.compile("--[a-z][a-z-]*").matcher(command.comment());
            while (named.find()) {
                assertTrue(help.stdout().contains(named.group()), "the page names " + named.group() + ", which "
                        + script + " --help does not know" + help.describe());
            }
        }
        assertEquals(List.of(), mavenFailures.get(MAVEN_TIMEOUT.toMillis() * 8, TimeUnit.MILLISECONDS));
    }

    /** The phase a command of an {@code sh} block belongs to, or null if this test does not know it. */
    static Phase phaseOf(Command command) {
        String text = command.withoutComment();
        if (!command.blockType().equals("sh")) {
            return null;
        }
        if (text.startsWith("mvn ")) {
            return Phase.MAVEN;
        }
        if (text.startsWith("bin/bench-vs-kafka")) {
            return Phase.SCRIPT;
        }
        if (text.matches("bin/kraft-cli (--help|random-uuid|format)\\b(?s).*")) {
            return Phase.BEFORE_START;
        }
        if (text.equals("bin/kraft-cli start")) {
            return Phase.START;
        }
        if (text.startsWith("bin/kraft-cli start --config ")) {
            return Phase.DEDICATED;
        }
        if (text.startsWith("bin/kraft-cli metadata-shell ")) {
            return Phase.STOPPED;
        }
        if (Pattern.compile("(^|\\| )bin/kraft-cli "
                + "(topics|produce|consume|configs|groups|transactions|quorum|leader-election|log-dirs) ")
                .matcher(text).find()) {
            return Phase.RUNNING;
        }
        return null;
    }

    private static List<Command> commandsOf(Phase phase) {
        return commands.stream().filter(c -> phaseOf(c) == phase).toList();
    }

    /** The command as it runs: the page's, with the ports moved to free ones and the placeholders filled in. */
    private static String runnable(Command command, int clientPort, int controllerPort) {
        String text = command.withoutComment().replace(CLIENT_ADDRESS, "localhost:" + clientPort)
                .replace(CONTROLLER_ADDRESS, "localhost:" + controllerPort);
        Matcher placeholder = PLACEHOLDER.matcher(text);
        return placeholder.replaceAll(match -> PLACEHOLDER_VALUES.get(match.group(1)));
    }

    /**
     * A working directory as a fresh clone looks to the page's commands: {@code bin/} (a link, so the launcher finds
     * the built jar) and the shipped configurations, on the free ports; {@code ./data/server.properties} is the
     * combined node's, which {@code start} would otherwise copy from the jar with the default ports.
     */
    private static void prepareSandbox(Path sandbox, int clientPort, int controllerPort) throws IOException {
        Files.createSymbolicLink(sandbox.resolve("bin"), REPOSITORY.resolve("bin"));
        Files.createDirectories(sandbox.resolve(SHIPPED_CONFIGS));
        for (String name : List.of("server.properties", "controller.properties", "broker.properties")) {
            String config = Files.readString(REPOSITORY.resolve(SHIPPED_CONFIGS).resolve(name));
            assertTrue(config.contains(CONTROLLER_ADDRESS), name + " uses the port the page shows");
            String onFreePorts = config.replace(CLIENT_ADDRESS, "localhost:" + clientPort)
                    .replace(CONTROLLER_ADDRESS, "localhost:" + controllerPort);
            Files.writeString(sandbox.resolve(SHIPPED_CONFIGS).resolve(name), onFreePorts);
        }
        Files.createDirectories(sandbox.resolve("data"));
        Files.copy(sandbox.resolve(SHIPPED_CONFIGS).resolve("server.properties"),
                sandbox.resolve("data/server.properties"));
    }

    /** Exit code 0, and for some commands the output that shows they did their job. */
    private static void check(Command command, Shell.Result result) {
        String text = command.withoutComment();
        assertEquals(0, result.exitCode(), command + result.describe());
        if (text.equals("bin/kraft-cli --help")) {
            assertTrue(result.stdout().startsWith("Usage: kraft-cli"), result.describe());
        } else if (text.startsWith("bin/kraft-cli random-uuid")) {
            assertTrue(MetaProperties.isValidUuid(result.stdout().strip()), result.describe());
        } else if (text.startsWith("bin/kraft-cli format ")) {
            assertTrue(result.stdout().contains(" with cluster.id " + PLACEHOLDER_VALUES.get("cluster-id")),
                    result.describe());
        } else if (text.startsWith("bin/kraft-cli consume ")) {
            // two keys, two partitions: no order between them
            assertEquals(List.of("hello", "world"), result.stdout().lines().sorted().toList(), result.describe());
        } else if (text.startsWith("bin/kraft-cli log-dirs ")) {
            assertTrue(result.stdout().contains("\"partition\":\"demo-0\""), result.describe());
        } else if (text.startsWith("bin/kraft-cli leader-election ")) {
            assertTrue(result.stdout().startsWith("Valid replica already elected for partitions demo-0"),
                    result.describe());
        } else if (text.contains(" describe --status")) {
            assertTrue(result.stdout().contains("LeaderId:               1"), result.describe());
        } else if (text.startsWith("bin/kraft-cli metadata-shell ") && text.contains("--dump-log")) {
            assertTrue(result.stdout().contains("TOPIC name=\"demo\""), result.describe());
        } else if (text.startsWith("bin/kraft-cli metadata-shell ")) {
            assertTrue(result.stdout().lines().anyMatch(line -> line.equals("demo")), result.describe());
        }
        assertFalse(result.stderr().contains("Exception"), result.describe());
    }

    /** Waits until the process prints a line matching the regex; fails at once if it exits first. */
    private static MatchResult awaitLine(Shell.Started process, String regex) {
        Pattern pattern = Pattern.compile(regex);
        AtomicReference<MatchResult> found = new AtomicReference<>();
        try {
            await().atMost(CLI_TIMEOUT).until(() -> {
                Matcher matcher = pattern.matcher(process.stdout() + process.stderr());
                if (matcher.find()) {
                    found.set(matcher.toMatchResult());
                    return true;
                }
                if (!process.process().isAlive()) {
                    fail("exited before printing /" + regex + "/" + process.result().describe());
                }
                return false;
            });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("no line /" + regex + "/ within " + CLI_TIMEOUT + process.result().describe(), e);
        }
        return found.get();
    }

    private static List<String> runMavenCommands(Shell shell, List<Command> mavenCommands) {
        List<String> failures = new ArrayList<>();
        for (Command command : mavenCommands) {
            MavenSmoke.of(runnable(command, 9092, 9093)).ifPresent(smoke -> {
                String line = smoke.commandLine() + " " + String.join(" ", MavenInvocation.sameSetupArguments());
                try {
                    Shell.Result result = shell.run(line, "", MAVEN_TIMEOUT);
                    System.out.println("README command took " + result.took().toMillis() + " ms: " + line);
                    if (result.exitCode() != 0 || !result.stdout().contains(smoke.expectedOutput())) {
                        failures.add(command + "\nexpected exit code 0 and output containing '"
                                + smoke.expectedOutput() + "'" + result.describe());
                    }
                } catch (AssertionError e) {
                    failures.add(command + ": " + e.getMessage());
                }
            });
        }
        return failures;
    }

    private static Set<String> optionNames(CommandLine command) {
        Set<String> names = new HashSet<>();
        for (OptionSpec option : command.getCommandSpec().options()) {
            names.addAll(List.of(option.names()));
        }
        command.getSubcommands().values().forEach(sub -> names.addAll(optionNames(sub)));
        return names;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            for (Path path : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static Path logDir() {
        return Distribution.logsRoot().resolve(ReadmeCommandsProcessTest.class.getSimpleName());
    }
}
