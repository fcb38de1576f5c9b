package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kraft-cli transactions} against an in-process node: list and describe a real producer's open transaction,
 * a partition's producers, and hanging transactions (written with no coordinator knowing them) found and aborted
 * (WriteTxnMarkers to the leader), after which the partition's last stable offset moves on.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TransactionsCommandTest {
    private static final String EVENTS = "tx-events";
    private static final String HANGING = "tx-hanging";
    private static final String TRANSACTIONAL_ID = "cli-txn";

    private ClientNode node;
    private Admin admin;
    private KafkaProducer<String, String> producer;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        node = new ClientNode(dir);
        admin = Admin.create(Map.of("bootstrap.servers", node.bootstrap()));
        admin.createTopics(List.of(new NewTopic(EVENTS, 1, (short) 1), new NewTopic(HANGING, 2, (short) 1)))
                .all().get();
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, TRANSACTIONAL_ID), new StringSerializer(),
                new StringSerializer());
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(EVENTS, 0, "k", "open")).get(30, TimeUnit.SECONDS);
    }

    @AfterAll
    void stop() {
        if (producer != null) {
            producer.close();
        }
        if (admin != null) {
            admin.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void listAndDescribeShowTheOpenTransaction() {
        List<List<String>> listed = table(succeeds(transactions("list")).out());
        assertEquals(List.of("TransactionalId", "Coordinator", "ProducerId", "TransactionState"), listed.get(0));
        assertEquals(2, listed.size(), listed.toString());
        assertEquals(List.of(TRANSACTIONAL_ID, "1"), listed.get(1).subList(0, 2));
        assertEquals("Ongoing", listed.get(1).get(3));

        List<List<String>> described = table(succeeds(transactions("describe", "--transactional-id",
                TRANSACTIONAL_ID)).out());
        assertEquals(List.of("CoordinatorId", "TransactionalId", "ProducerId", "ProducerEpoch", "TransactionState",
                "TransactionTimeoutMs", "CurrentTransactionStartTimeMs", "TransactionDurationMs", "TopicPartitions"),
                described.get(0));
        List<String> row = described.get(1);
        assertEquals(List.of("1", TRANSACTIONAL_ID, listed.get(1).get(2), "0", "Ongoing", "60000"), row.subList(0, 6));
        assertTrue(Long.parseLong(row.get(7)) >= 0, row.toString());
        assertEquals(EVENTS + "-0", row.get(8));

        assertOneLineError(transactions("describe", "--transactional-id", "nope"), KraftCli.EXIT_FAILURE,
                "transactional id 'nope' does not exist");
    }

    @Test
    void describeProducersShowsTheOpenTransactionsStartOffset() {
        List<List<String>> producers = table(succeeds(transactions("describe-producers", "--topic", EVENTS,
                "--partition", "0")).out());
        assertEquals(List.of("ProducerId", "ProducerEpoch", "LatestCoordinatorEpoch", "LastSequence", "LastTimestamp",
                "CurrentTransactionStartOffset"), producers.get(0));
        assertEquals(2, producers.size(), producers.toString());
        assertEquals(List.of("0", "-1", "0"), producers.get(1).subList(1, 4));
        assertEquals("0", producers.get(1).get(5));
    }

    @Test
    void aHangingTransactionIsFoundAndAbortedAndTheLastStableOffsetMovesOn() throws Exception {
        long idleSinceMs = System.currentTimeMillis() - TimeUnit.MINUTES.toMillis(20);
        writeHangingTransaction(new TopicPartition(HANGING, 0), 7_000_001L, idleSinceMs);
        writeHangingTransaction(new TopicPartition(HANGING, 1), 7_000_002L, idleSinceMs);
        assertEquals(0L, lastStableOffset(0));

        List<List<String>> hanging = table(succeeds(transactions("find-hanging", "--topic", HANGING)).out());
        assertEquals(List.of("Topic", "Partition", "ProducerId", "ProducerEpoch", "CoordinatorEpoch", "StartOffset",
                "LastTimestamp", "Duration(min)"), hanging.get(0));
        assertEquals(List.of(HANGING, "0", "7000001", "0", "-1", "0", Long.toString(idleSinceMs), "20"),
                hanging.get(1));
        assertEquals(List.of(HANGING, "1", "7000002"), hanging.get(2).subList(0, 3));
        assertEquals(3, hanging.size(), hanging.toString());
        assertEquals(2, table(succeeds(transactions("find-hanging", "--broker-id", "1")).out()).size() - 1);
        assertEquals(1, table(succeeds(transactions("find-hanging", "--topic", EVENTS, "--max-transaction-timeout",
                "0")).out()).size(), "the real producer's open transaction is not hanging: its coordinator will end it");
        assertEquals(1, table(succeeds(transactions("find-hanging", "--topic", HANGING, "--max-transaction-timeout",
                "30")).out()).size(), "idle for less than the largest timeout");

        succeeds(transactions("abort", "--topic", HANGING, "--partition", "0", "--start-offset", "0"));
        succeeds(transactions("abort", "--topic", HANGING, "--partition", "1", "--producer-id", "7000002",
                "--producer-epoch", "0", "--coordinator-epoch", "-1"));
        assertEquals(1, table(succeeds(transactions("find-hanging", "--topic", HANGING)).out()).size());
        assertEquals(2L, lastStableOffset(0), "the record and its ABORT marker");
        assertEquals(2L, lastStableOffset(1));
        List<List<String>> producers = table(succeeds(transactions("describe-producers", "--topic", HANGING,
                "--partition", "0")).out());
        assertEquals("None", producers.get(1).get(5));

        assertOneLineError(transactions("abort", "--topic", HANGING, "--partition", "0", "--start-offset", "5"),
                KraftCli.EXIT_FAILURE, "no open transaction starts at offset 5 of " + HANGING + "-0");
    }

    @Test
    void contradictoryOptionsAreOneLineAndExitTwo() {
        assertOneLineError(transactions("abort", "--topic", HANGING, "--partition", "0", "--start-offset", "0",
                "--producer-id", "1"), KraftCli.EXIT_USAGE, "one way, not both");
        assertOneLineError(transactions("abort", "--topic", HANGING, "--partition", "0", "--producer-id", "1"),
                KraftCli.EXIT_USAGE, "needs all of");
        assertOneLineError(transactions("find-hanging"), KraftCli.EXIT_USAGE, "needs --topic or --broker-id");
        assertOneLineError(transactions("find-hanging", "--broker-id", "1", "--partition", "0"),
                KraftCli.EXIT_USAGE, "--partition needs --topic");
        CliRun missing = CliRun.of("transactions", "--bootstrap-server", node.bootstrap());
        assertEquals(KraftCli.EXIT_USAGE, missing.exitCode(), missing.err());
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private long lastStableOffset(int partition) throws Exception {
        TopicPartition tp = new TopicPartition(HANGING, partition);
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest()),
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).partitionResult(tp).get().offset();
    }

    /**
     * A transactional batch produced with no transactional id in the request, so no coordinator knows it: a
     * transaction only an abort from outside can end (what a client older than KIP-890 could leave behind).
     */
    private void writeHangingTransaction(TopicPartition tp, long producerId, long timestampMs) throws IOException {
        MemoryRecords records = MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, (short) 0, 0,
                new SimpleRecord(timestampMs, "k".getBytes(), "hanging".getBytes()));
        ProduceRequestData data = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(10_000);
        data.topicData().add(new ProduceRequestData.TopicProduceData().setName(tp.topic())
                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(tp.partition())
                        .setRecords(records))));
        ProduceRequest request = new ProduceRequest.Builder((short) 11, (short) 11, data).build((short) 11);
        RequestHeader header = new RequestHeader(ApiKeys.PRODUCE, (short) 11, "cli-test", 1);
        ByteBuffer payload = request.serializeWithHeader(header);
        try (Socket socket = new Socket("127.0.0.1", Integer.parseInt(node.bootstrap().split(":")[1]))) {
            socket.setSoTimeout(15_000);
            ByteBuffer frame = ByteBuffer.allocate(4 + payload.remaining()).putInt(payload.remaining()).put(payload);
            socket.getOutputStream().write(frame.array());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            ProduceResponse parsed = (ProduceResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(response),
                    header);
            assertEquals(Errors.NONE.code(), parsed.data().responses().iterator().next().partitionResponses().get(0)
                    .errorCode());
        }
    }

    private CliRun transactions(String... args) {
        String[] full = new String[args.length + 3];
        full[0] = "transactions";
        full[1] = "--bootstrap-server";
        full[2] = node.bootstrap();
        System.arraycopy(args, 0, full, 3, args.length);
        return CliRun.of(full);
    }

    private static CliRun succeeds(CliRun run) {
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertEquals("", run.err());
        return run;
    }

    private static void assertOneLineError(CliRun run, int exitCode, String contained) {
        assertEquals(exitCode, run.exitCode(), run.out() + run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("Error: "), run.err());
        assertTrue(run.err().contains(contained), run.err());
    }

    /** A table's lines split into cells (no cell the tests read contains a space). */
    private static List<List<String>> table(String out) {
        List<List<String>> rows = new ArrayList<>();
        for (String line : out.lines().toList()) {
            rows.add(Arrays.asList(line.trim().split(" +")));
        }
        return rows;
    }
}
