package io.kraft.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.proto.metadata.DirectoryIdList;
import io.kraft.proto.metadata.PartitionChangeRecord;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The shell's commands over the tree of an image built from records. */
class ShellSessionTest {
    private static final String NL = System.lineSeparator();

    private StringWriter out;
    private StringWriter err;
    private ShellSession session;

    @BeforeEach
    void newSession() {
        out = new StringWriter();
        err = new StringWriter();
        MetadataTree tree = MetadataTree.of(SampleMetadata.image(), Map.of("epoch", "4", "leaderId", "1"));
        session = new ShellSession(tree, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    /** Runs one line and returns what it printed to out, asserting it succeeded. */
    private String run(String line) {
        out.getBuffer().setLength(0);
        ShellSession.Outcome outcome = session.execute(line);
        assertEquals(ShellSession.Outcome.OK, outcome, line + ": " + err);
        return out.toString();
    }

    private String fails(String line) {
        err.getBuffer().setLength(0);
        assertEquals(ShellSession.Outcome.FAILED, session.execute(line), line);
        return err.toString().strip();
    }

    private static String lines(String... lines) {
        return String.join(NL, lines) + NL;
    }

    @Test
    void lsListsTheRootAndDirectoriesInNumericThenNameOrder() {
        assertEquals(lines("acls", "brokers", "clientQuotas", "configs", "features", "image", "producerIds", "quorum",
                "scram", "topicIds", "topics", "transactions"), run("ls"));
        assertEquals(lines("1", "2", "10"), run("ls /brokers"));
        assertEquals(lines("orders", "payments"), run("ls /topics"));
        assertEquals(lines("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "id", "name"),
                run("ls /topics/orders"));
        assertEquals(lines("/topics/orders/id"), run("ls /topics/orders/id"));
        assertEquals(lines("/brokers:", "1", "2", "10", "", "/features:", "metadata.version"),
                run("ls /brokers /features"));
    }

    @Test
    void aclsShowEachAclByItsId() {
        io.kraft.metadata.image.MetadataDelta delta = new io.kraft.metadata.image.MetadataDelta(SampleMetadata.image());
        java.util.UUID id = new java.util.UUID(7, 9);
        delta.replay(io.kraft.metadata.MetadataRecords.of(new io.kraft.metadata.authorizer.StandardAcl(
                io.kraft.metadata.authorizer.ResourceType.TOPIC, "pay-",
                io.kraft.metadata.authorizer.PatternType.PREFIXED, "User:alice", "*",
                io.kraft.metadata.authorizer.AclOperation.WRITE,
                io.kraft.metadata.authorizer.AclPermissionType.ALLOW).toRecord(id)),
                SampleMetadata.image().offset() + 1, 6);
        session = new ShellSession(MetadataTree.of(delta.apply(), Map.of()), new PrintWriter(out, true),
                new PrintWriter(err, true));
        String name = KafkaIds.text(id);
        assertEquals(lines(name), run("ls /acls"));
        assertEquals(lines("{\"resourceType\": \"TOPIC\", \"resourceName\": \"pay-\", \"patternType\": \"PREFIXED\", "
                + "\"principal\": \"User:alice\", \"host\": \"*\", \"operation\": \"WRITE\", "
                + "\"permissionType\": \"ALLOW\"}"), run("cat /acls/" + name));
    }

    @Test
    void clientQuotasShowEachEntityWithItsKeys() {
        io.kraft.metadata.image.MetadataDelta delta = new io.kraft.metadata.image.MetadataDelta(SampleMetadata.image());
        delta.replay(io.kraft.metadata.MetadataRecords.of(io.kraft.proto.metadata.ClientQuotaRecord.newBuilder()
                .addAllEntity(io.kraft.metadata.quota.ClientQuotaEntity.of("alice", null).toRecord())
                .setKey("producer_byte_rate").setValue(1048576).build()), SampleMetadata.image().offset() + 1, 6);
        session = new ShellSession(MetadataTree.of(delta.apply(), Map.of()), new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertEquals(lines("client-id=<default>,user=alice"), run("ls /clientQuotas"));
        assertEquals(lines("1048576.0"), run("cat /clientQuotas/client-id=<default>,user=alice/producer_byte_rate"));
    }

    @Test
    void transactionsShowEachIdsStateWithItsPartitionsByTopicName() {
        io.kraft.metadata.image.MetadataDelta delta = new io.kraft.metadata.image.MetadataDelta(SampleMetadata.image());
        delta.replay(io.kraft.metadata.MetadataRecords.of(io.kraft.proto.metadata.TransactionRecord.newBuilder()
                .setTransactionalId("tx-1").setProducerId(4000).setProducerEpoch(3).setPreviousProducerId(-1)
                .setPreviousProducerEpoch(-1).setTimeoutMs(60_000)
                .setState(io.kraft.proto.metadata.TransactionState.TRANSACTION_STATE_PREPARE_COMMIT)
                .addAddedPartitions(io.kraft.proto.metadata.TopicPartitions.newBuilder()
                        .setTopicId(io.kraft.metadata.Uuids.toProto(SampleMetadata.ORDERS_ID)).addPartitions(2))
                .addAddedGroups("g").setStartTimeMs(1_000).setUpdateTimeMs(2_000).build()),
                SampleMetadata.image().offset() + 1, 6);
        MetadataTree tree = MetadataTree.of(delta.apply(), Map.of());
        session = new ShellSession(tree, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(lines("tx-1"), run("ls /transactions"));
        assertEquals(lines("{\"transactionalId\": \"tx-1\", \"producerId\": 4000, \"producerEpoch\": 3, "
                + "\"previousProducerId\": -1, \"previousProducerEpoch\": -1, \"state\": \"PrepareCommit\", "
                + "\"timeoutMs\": 60000, \"startTimeMs\": 1000, \"updateTimeMs\": 2000, \"coordinatorEpoch\": 6, "
                + "\"partitions\": [\"orders-2\"], \"groups\": [\"g\"]}"), run("cat /transactions/tx-1"));
    }

    @Test
    void catPrintsBrokersPartitionsConfigsFeaturesAndPositions() {
        assertEquals(lines("false"), run("cat /brokers/1/isFenced"));
        assertEquals(lines("true"), run("cat /brokers/2/isFenced"));
        assertEquals(lines("{\"id\": 1, \"epoch\": 101, \"incarnationId\": \"" + KafkaIds.text(SampleMetadata.INCARNATION)
                + "\", \"listeners\": [{\"name\": \"PLAINTEXT\", \"host\": \"localhost\", \"port\": 9091, "
                + "\"securityProtocol\": \"PLAINTEXT\"}], \"rack\": null, \"fenced\": false, "
                + "\"inControlledShutdown\": false}"), run("cat /brokers/1/registration"));
        assertEquals(lines("{\"replicas\": [1, 10], \"isr\": [1, 10], \"leader\": 10, \"leaderEpoch\": 1, "
                + "\"partitionEpoch\": 1}"), run("cat /topics/orders/0/data"));
        assertEquals(lines(KafkaIds.text(SampleMetadata.ORDERS_ID)), run("cat /topics/orders/id"));
        assertEquals(lines("compact"), run("cat /configs/topic/payments/cleanup.policy"));
        assertEquals(lines("1000"), run("cat /configs/broker/<default>/log.retention.ms"));
        assertEquals(lines("5"), run("cat /configs/broker/1/log.flush.interval.messages"));
        assertEquals(lines("3"), run("cat /features/metadata.version"));
        assertEquals(lines("5000"), run("cat /producerIds/nextProducerId"));
        assertEquals(lines("23", "4"), run("cat /image/offset /image/epoch"));
        assertEquals(lines("1"), run("cat /quorum/leaderId"));
    }

    @Test
    void topicIdsLeadToTheSameTopicDirectory() {
        String id = KafkaIds.text(SampleMetadata.PAYMENTS_ID);
        List<String> ids = Stream.of(SampleMetadata.ORDERS_ID, SampleMetadata.PAYMENTS_ID).map(KafkaIds::text)
                .sorted().toList();
        assertEquals(lines(ids.toArray(String[]::new)), run("ls /topicIds"));
        assertEquals(lines("payments"), run("cat /topicIds/" + id + "/name"));
        assertEquals(run("cat /topics/payments/0/data"), run("cat /topicIds/" + id + "/0/data"));
    }

    @Test
    void aPartitionsDataShowsItsReplicasDirectoriesOnceRecorded() {
        UUID dir = new UUID(5, 6);
        MetadataDelta delta = new MetadataDelta(SampleMetadata.image());
        delta.replayBatch(List.of(MetadataRecords.of(PartitionChangeRecord.newBuilder()
                .setTopicId(Uuids.toProto(SampleMetadata.ORDERS_ID)).setPartitionId(3)
                .setDirectories(DirectoryIdList.newBuilder().addDirectoryIds(Uuids.toProto(
                        PartitionRegistration.UNKNOWN_DIRECTORY)).addDirectoryIds(Uuids.toProto(dir))).build())),
                100, 4);
        session = new ShellSession(MetadataTree.of(delta.apply(), Map.of()), new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertEquals(lines("{\"replicas\": [1, 10], \"isr\": [1, 10], \"leader\": 1, \"leaderEpoch\": 0, "
                + "\"partitionEpoch\": 1, \"directories\": [\"AAAAAAAAAAAAAAAAAAAAAA\", \"" + KafkaIds.text(dir)
                + "\"]}"),
                run("cat /topics/orders/3/data"));
    }

    @Test
    void cdAndPwdMoveThroughRelativeAndAbsolutePaths() {
        assertEquals(lines("/"), run("pwd"));
        run("cd topics/orders");
        assertEquals(lines("/topics/orders"), run("pwd"));
        assertEquals(lines("{\"replicas\": [1, 10], \"isr\": [1, 10], \"leader\": 1, \"leaderEpoch\": 0, "
                + "\"partitionEpoch\": 0}"), run("cat 3/data"));
        run("cd ../payments/./0");
        assertEquals(lines("/topics/payments/0"), run("pwd"));
        run("cd ../../../../..");
        assertEquals(lines("/"), run("pwd"), "above the root stays at the root");
        run("cd /brokers/10");
        run("cd");
        assertEquals(lines("/"), run("pwd"), "cd alone goes to the root");
        assertEquals("cd: /topics/orders/id: not a directory", fails("cd /topics/orders/id"));
        assertEquals("cd: nowhere: no such file or directory", fails("cd nowhere"));
        assertEquals(lines("/"), run("pwd"), "a failed cd stays put");
    }

    @Test
    void treePrintsDirectoriesAndFileValuesIndented() {
        assertEquals(lines("payments/", "  0/", "    data: {\"replicas\": [10], \"isr\": [10], \"leader\": 10, "
                + "\"leaderEpoch\": 0, \"partitionEpoch\": 0}", "  id: " + KafkaIds.text(SampleMetadata.PAYMENTS_ID),
                "  name: payments"), run("tree /topics/payments"));
        assertEquals(lines("features/", "  metadata.version: 3"), run("tree features"));
        assertEquals(lines("id: " + KafkaIds.text(SampleMetadata.ORDERS_ID)), run("tree /topics/orders/id"));
        assertTrue(run("tree").startsWith(lines("/", "  acls/", "  brokers/", "    1/")), out.toString());
    }

    @Test
    void findPrintsEveryPathBelow() {
        assertEquals(lines("/topics/payments", "/topics/payments/0", "/topics/payments/0/data",
                "/topics/payments/id", "/topics/payments/name"), run("find /topics/payments"));
        run("cd /configs");
        assertEquals(lines("/configs/topic", "/configs/topic/payments", "/configs/topic/payments/cleanup.policy"),
                run("find topic"));
        long all = run("find /").lines().count();
        assertTrue(all > 60, "every node of the tree: " + all);
    }

    @Test
    void mistakesAreOneLineComplaintsOnStderr() {
        assertEquals("ls: /nope: no such file or directory", fails("ls /nope"));
        assertEquals("cat: /topics: is a directory", fails("cat /topics"));
        assertEquals("cat: missing PATH: usage cat PATH...", fails("cat"));
        assertEquals("frobnicate: unknown command: try help", fails("frobnicate /"));
        assertEquals("pwd: takes no arguments", fails("pwd /"));
        assertEquals("tree: too many arguments: usage tree [PATH]", fails("tree / /"));
        assertEquals("shell: unclosed \" in: cat \"/topics", fails("cat \"/topics"));
        assertEquals("", out.toString(), "nothing on stdout");
    }

    @Test
    void quotedWordsMayHoldSpaces() {
        assertEquals("ls: /no such: no such file or directory", fails("ls '/no such'"));
        assertEquals(lines("orders", "payments"), run("ls \"/topics\""));
    }

    @Test
    void helpListsEveryCommandAndHistoryNumbersWhatWasEntered() {
        String help = run("help");
        for (String command : List.of("ls", "cat", "tree", "find", "pwd", "cd", "history", "help", "exit")) {
            assertTrue(help.lines().anyMatch(line -> line.startsWith(command)), command + " in " + help);
        }
        run("cd /topics");
        run("  ls  ");
        assertEquals(lines("   1  help", "   2  cd /topics", "   3  ls", "   4  history"), run("history"));
    }

    @Test
    void readsCommandsUntilExitOrTheEndOfInput() {
        String script = String.join("\n", "cd /brokers", "ls", "", "exit", "ls /topics");
        int exitCode = session.run(new BufferedReader(new StringReader(script)), false);
        assertEquals(0, exitCode);
        assertEquals(lines("1", "2", "10"), out.toString(), "nothing after exit runs, and no prompt");

        out.getBuffer().setLength(0);
        int failed = session.run(new BufferedReader(new StringReader("ls /nope\n")), false);
        assertEquals(1, failed, "the last command failed");

        out.getBuffer().setLength(0);
        session.run(new BufferedReader(new StringReader("pwd\n")), true);
        assertEquals("[/brokers] > /brokers" + NL + "[/brokers] > " + NL, out.toString(), "prompts on a terminal");
    }

    @Test
    void oneShotWordsAreTakenAsGiven() {
        out.getBuffer().setLength(0);
        assertEquals(ShellSession.Outcome.OK, session.execute(List.of("cat", "/topics/payments/name")));
        assertEquals(lines("payments"), out.toString());
        assertEquals(ShellSession.Outcome.EXIT, session.execute(List.of("exit")));
    }
}
