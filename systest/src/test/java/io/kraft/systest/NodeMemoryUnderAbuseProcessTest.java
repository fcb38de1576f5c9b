package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kraft.broker.ClientRecords;
import io.kraft.broker.network.AbuseClient;
import io.kraft.storage.MetaProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node started as users start it ({@code bin/kraft-cli}, its default 1 GiB heap) under each attack of the abuse
 * tests, measured from outside: its peak resident set (the kernel's high water mark, reset before each attack)
 * stays under 1 GiB, the heap's size, and a kafka-clients producer and consumer are served after every attack.
 * Linux only (it reads and resets {@code /proc/<pid>}).
 */
class NodeMemoryUnderAbuseProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long GOAL_BYTES = 1L << 30;

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    private final List<String> report = new ArrayList<>();
    private int served;

    @Test
    void peakResidentSetStaysUnderTheHeapSizeUnderEveryAttack() throws Exception {
        assumeTrue(Files.isWritable(Path.of("/proc/self/clear_refs")), "needs Linux's /proc/<pid>/clear_refs");
        NodeConfigFile node = NodeConfigFile.combined(1, dataDir.resolve("node-1"))
                .with("queued.max.request.stall.ms", "2000");
        Path config = node.write();
        JvmProcess format = processes.run(JvmSpec.kraftCli("format",
                "format", "-c", config.toString(), "-t", MetaProperties.randomUuid()), WAIT);
        assertEquals(0, format.waitForExit(WAIT), format.describeLogs());
        JvmProcess started = processes.start(JvmSpec.launcherScript("start", "start", "--config", config.toString()));
        started.waitForLogLine("Broker 1 is unfenced", WAIT);
        int port = node.brokerPort();
        String bootstrap = "127.0.0.1:" + port;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            List<NewTopic> topics = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                topics.add(new NewTopic("good-" + i, 3, (short) 1));
            }
            topics.add(new NewTopic("compacted", 1, (short) 1).configs(Map.of("cleanup.policy", "compact")));
            admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
        }
        long pid = started.pid();
        measure(pid, "idle after start", () -> { });
        measure(pid, "4 connections sending 100 MiB frames of empty structs",
                () -> AbuseClient.emptyStructFrames(port, 4, AbuseClient.MAX_FRAME_BYTES));
        servesWellBehavedClients(bootstrap);
        measure(pid, "1,000 connections writing requests for 3 s and reading no answer",
                () -> AbuseClient.unreadResponses(port, 1_000, 3_000));
        measure(pid, "2,000 connections each stalled 256 KiB into a 100 MiB frame, clients served meanwhile", () -> {
            try (AbuseClient.Connections stalled = AbuseClient.slowSenders(port, 2_000, 256 << 10)) {
                servesWellBehavedClients(bootstrap);
            }
        });
        measure(pid, "10,000 idle connections", () -> {
            try (AbuseClient.Connections idle = AbuseClient.idleConnections(port, 10_000)) {
                servesWellBehavedClients(bootstrap);
            }
        });
        measure(pid, "a 1 MiB gzip batch inflating to 1 GiB to a compacted topic",
                () -> assertEquals(10, AbuseClient.gzipBomb(port, "compacted"), "MESSAGE_TOO_LARGE"));
        servesWellBehavedClients(bootstrap);
        System.out.println("Peak RSS of a node run by bin/kraft-cli (-Xmx1g):\n  " + String.join("\n  ", report));
    }

    /** An attack to run against the node. */
    private interface Attack {
        void run() throws Exception;
    }

    private void measure(long pid, String what, Attack attack) throws Exception {
        Path proc = Path.of("/proc", Long.toString(pid));
        Files.writeString(proc.resolve("clear_refs"), "5"); // the high water mark starts again from the RSS now
        long start = System.nanoTime();
        attack.run();
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        long peak = statusBytes(proc, "VmHWM:");
        report.add(String.format("%-90s %4d MiB peak, %4d MiB after (%d ms)", what, peak >> 20,
                statusBytes(proc, "VmRSS:") >> 20, millis));
        assertTrue(peak < GOAL_BYTES, what + ": peak RSS " + (peak >> 20) + " MiB\n" + String.join("\n", report));
    }

    private static long statusBytes(Path proc, String field) throws IOException {
        for (String line : Files.readAllLines(proc.resolve("status"))) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
            }
        }
        throw new IllegalStateException(field + " missing from " + proc.resolve("status"));
    }

    /** A producer writes 500 records to a topic of its own and a consumer reads each back. */
    private void servesWellBehavedClients(String bootstrap) throws Exception {
        String topic = "good-" + served++;
        int[] partitions;
        try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(bootstrap, Map.of())) {
            partitions = ClientRecords.produce(producer, topic, 500);
        }
        try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(bootstrap, Map.of())) {
            ClientRecords.consumeAndVerify(consumer, topic, 3, 500, partitions);
        }
    }
}
