package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** {@code kraft-cli produce} reads standard input into records that {@code kraft-cli consume} prints back. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProduceConsumeCommandTest {
    private ClientNode node;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        node = new ClientNode(dir);
    }

    @AfterAll
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private CliRun produce(String input, String... args) {
        InputStream stdin = System.in;
        System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
        try {
            return run("produce", args);
        } finally {
            System.setIn(stdin);
        }
    }

    private CliRun run(String command, String... args) {
        String[] full = new String[args.length + 3];
        full[0] = command;
        full[1] = "--bootstrap-server";
        full[2] = node.bootstrap();
        System.arraycopy(args, 0, full, 3, args.length);
        return CliRun.of(full);
    }

    @Test
    void producesKeyedLinesThatConsumePrintsBackInOrder() {
        assertEquals(0, run("topics", "--create", "--topic", "lines", "--partitions", "1").exitCode());
        CliRun produced = produce("user-1:signed in\nuser-2:paid\nuser-1:signed out\n", "--topic", "lines",
                "--property", "parse.key=true", "--property", "key.separator=:");
        assertEquals(0, produced.exitCode(), produced.err());
        assertEquals("", produced.err());

        CliRun consumed = run("consume", "--topic", "lines", "--from-beginning", "--max-messages", "3",
                "--property", "print.key=true");
        assertEquals(0, consumed.exitCode(), consumed.err());
        assertEquals("user-1\tsigned in\nuser-2\tpaid\nuser-1\tsigned out\n", consumed.out());
        assertEquals("Processed a total of 3 messages", consumed.err().strip());

        CliRun offsets = run("consume", "--topic", "lines", "--from-beginning", "--max-messages", "2",
                "--property", "print.offset=true", "--property", "print.partition=true");
        assertEquals("Partition:0\tOffset:0\tsigned in\nPartition:0\tOffset:1\tpaid\n", offsets.out());
    }

    @Test
    void consumingFromTheEndWaitsForNewRecordsUntilTheTimeout() {
        assertEquals(0, run("topics", "--create", "--topic", "quiet").exitCode());
        assertEquals(0, produce("before\n", "--topic", "quiet").exitCode());
        CliRun consumed = run("consume", "--topic", "quiet", "--timeout-ms", "1000");
        assertEquals(0, consumed.exitCode(), consumed.err());
        assertEquals("", consumed.out());
        assertEquals("Processed a total of 0 messages", consumed.err().strip());
    }

    @Test
    void producingToAnUnknownTopicCreatesIt() {
        CliRun produced = produce("first\nsecond\n", "--topic", "created-by-producer");
        assertEquals(0, produced.exitCode(), produced.err());
        CliRun consumed = run("consume", "--topic", "created-by-producer", "--from-beginning", "--max-messages", "2");
        assertEquals("first\nsecond\n", consumed.out());
        assertTrue(run("topics", "--list").out().lines().anyMatch("created-by-producer"::equals));
    }

    @Test
    void aLineWithoutTheKeySeparatorStopsTheProducerWithOneLine() {
        CliRun produced = produce("k:v\nno separator here\n", "--topic", "strict", "--property", "parse.key=true",
                "--property", "key.separator=:");
        assertEquals(KraftCli.EXIT_FAILURE, produced.exitCode());
        assertEquals(1, produced.err().lines().count(), produced.err());
        assertTrue(produced.err().startsWith("Error: No key separator ':' found on line 2"), produced.err());
    }

    @Test
    void wrongPropertiesGetTheUsageMessage() {
        CliRun produced = produce("x\n", "--topic", "t", "--property", "parse.keys=true");
        assertEquals(KraftCli.EXIT_USAGE, produced.exitCode());
        assertTrue(produced.err().contains("Unknown --property parse.keys"), produced.err());
        CliRun consumed = run("consume", "--topic", "t", "--max-messages", "0");
        assertEquals(KraftCli.EXIT_USAGE, consumed.exitCode());
        assertTrue(consumed.err().contains("--max-messages must be at least 1"), consumed.err());
    }

    @Test
    void aGroupMemberResumesWhereTheGroupLeftOff() {
        assertEquals(0, run("topics", "--create", "--topic", "shared", "--partitions", "2").exitCode());
        assertEquals(0, produce("a\nb\nc\nd\n", "--topic", "shared").exitCode());
        CliRun first = run("consume", "--topic", "shared", "--group", "readers", "--from-beginning",
                "--max-messages", "4", "--timeout-ms", "20000");
        assertEquals(0, first.exitCode(), first.err());
        assertEquals(4, first.out().lines().count(), first.out());
        assertEquals(0, produce("e\n", "--topic", "shared").exitCode());
        CliRun second = run("consume", "--topic", "shared", "--group", "readers", "--from-beginning",
                "--max-messages", "1", "--timeout-ms", "20000");
        assertEquals("e\n", second.out(), "the group's committed offsets skip what the first member read");
    }
}
