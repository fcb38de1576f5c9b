package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties;
import io.kraft.storage.io.FaultInjection;
import io.kraft.storage.log.LogManager;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A single combined node as a real process whose one log directory fills up (ENOSPC injected below its files with the
 * test-only {@link FaultInjection}: a small file system cannot be mounted without root). The append fails with
 * KAFKA_STORAGE_ERROR, and with no directory left the node shuts down in order and exits with status 1. Once space is
 * freed it restarts with every acknowledged record and takes writes again. Then a byte flipped inside the fsynced part
 * of its metadata log makes it refuse to start, with one line naming the file and the offset.
 */
class DiskFullProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long ADMIN_WAIT_MS = 30_000;
    private static final String TOPIC = "orders";

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    private NodeConfigFile node;
    private Path config;
    private int launches;

    @Test
    void aFullDiskStopsTheNodeInOrderAndARestartFindsEveryAcknowledgedRecord() throws Exception {
        node = NodeConfigFile.combined(1, dataDir.resolve("node-1"));
        config = node.write();
        String clusterId = MetaProperties.randomUuid();
        node.directories().forEach(directory -> MetaProperties.forNewDirectory(clusterId, 1).write(directory));
        Path logDir = node.dataDir().resolve("logs");

        JvmProcess first = start();
        List<String> acknowledged = new ArrayList<>();
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
        }
        try (KafkaProducer<String, String> producer = producer()) {
            for (int i = 0; i < 300; i++) {
                producer.send(new ProducerRecord<>(TOPIC, "k" + i, "v" + i)).get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
                acknowledged.add("v" + i);
            }
            Files.writeString(logDir.resolve(FaultInjection.TRIGGER_FILE), "ENOSPC");
            ExecutionException full = assertThrows(ExecutionException.class, () -> producer.send(
                    new ProducerRecord<>(TOPIC, "k-full", "v-full")).get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS));
            assertInstanceOf(KafkaStorageException.class, full.getCause(), String.valueOf(full.getCause()));
        }
        int status = first.waitForExit(WAIT);
        assertEquals(1, status, first.describeLogs());
        String logs = first.stderr();
        assertTrue(logs.contains("Stopping the process: every log directory of broker 1 is offline"), logs);
        assertTrue(logs.contains("No space left on device"), logs);
        assertTrue(logs.contains("Node 1 stopped"), "an orderly stop closes the node" + first.describeLogs());
        assertTrue(Files.notExists(logDir.resolve(LogManager.CLEAN_SHUTDOWN_FILE)),
                "a failed directory is never marked clean");
        report("ENOSPC in the only log directory -> the append failed with KAFKA_STORAGE_ERROR and the node exited "
                + "with status " + status + " after an orderly shutdown");

        // Space freed: the node recovers the directory (the half-written batch is cut) and serves it all.
        Files.delete(logDir.resolve(FaultInjection.TRIGGER_FILE));
        JvmProcess second = start();
        assertEquals(acknowledged, readAll());
        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>(TOPIC, "k-after", "v-after")).get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
        }
        List<String> after = new ArrayList<>(acknowledged);
        after.add("v-after");
        assertEquals(after, readAll());
        report("restarted after space was freed: all " + acknowledged.size() + " acknowledged records there, and "
                + "appends work again");
        int stopped = second.stop(WAIT);
        assertTrue(stopped == 0 || stopped == 143, second.describeLogs());

        refusesToStartOnACorruptMetadataLog();
    }

    private void refusesToStartOnACorruptMetadataLog() throws Exception {
        Path segment;
        try (Stream<Path> files = Files.list(node.dataDir().resolve("metadata").resolve("__cluster_metadata-0"))) {
            segment = files.filter(f -> f.toString().endsWith(".raftlog")).sorted().findFirst().orElseThrow();
        }
        long size = Files.size(segment);
        long thirdEntry = flipAByteOfEntry(segment, 2);
        JvmProcess refused = processes.start(JvmSpec.kraftCli("node-1-corrupt", "start", "--config", config.toString()));
        assertEquals(1, refused.waitForExit(WAIT), refused.describeLogs());
        List<String> errors = refused.stderr().lines().filter(l -> l.startsWith("Error: ")).toList();
        assertEquals(1, errors.size(), refused.describeLogs());
        assertTrue(errors.get(0).startsWith("Error: metadata log segment " + segment + " is corrupt at offset 2 (byte "
                + thirdEntry + "): an entry fails its CRC check"), errors.get(0));
        assertEquals(size, Files.size(segment), "nothing was cut off");
        report("a byte flipped inside the fsynced metadata log -> refused to start: " + errors.get(0));
    }

    /** Flips a byte in the payload of entry {@code index}; returns the entry's byte position. */
    private static long flipAByteOfEntry(Path segment, int index) throws Exception {
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long position = 0;
            ByteBuffer length = ByteBuffer.allocate(4);
            for (int i = 0; i < index; i++) {
                length.clear();
                channel.read(length, position);
                position += 8 + length.flip().getInt();
            }
            ByteBuffer one = ByteBuffer.allocate(1);
            long target = position + 8 + 13; // past the frame (length, CRC) and the entry header
            channel.read(one, target);
            channel.write(ByteBuffer.wrap(new byte[] {(byte) (one.get(0) ^ 0x5A)}), target);
            return position;
        }
    }

    private JvmProcess start() {
        launches++;
        JvmProcess process = processes.start(JvmSpec.kraftCli("node-1-run-" + launches, "start", "--config",
                config.toString()).withJvmFlags("-D" + FaultInjection.ENABLE_PROPERTY + "=true"));
        process.waitForLogLine("kraft node 1 ready", WAIT);
        process.waitForLogLine("Broker 1 is unfenced", WAIT);
        return process;
    }

    private List<String> readAll() {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(tp));
            long end = consumer.endOffsets(List.of(tp), Duration.ofMillis(ADMIN_WAIT_MS)).get(tp);
            consumer.seekToBeginning(List.of(tp));
            List<String> values = new ArrayList<>();
            long deadlineNanos = System.nanoTime() + WAIT.toNanos();
            while (consumer.position(tp) < end && System.nanoTime() - deadlineNanos < 0) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            assertEquals(end, consumer.position(tp), "the consumer did not reach the end offset");
            return values;
        }
    }

    private KafkaProducer<String, String> producer() {
        // No retries: the storage error itself must reach the caller.
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
                ProducerConfig.RETRIES_CONFIG, 0,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20_000), new StringSerializer(), new StringSerializer());
    }

    private Admin admin() {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
    }

    private String bootstrap() {
        return "127.0.0.1:" + node.brokerPort();
    }

    private static void report(String line) {
        System.out.println("[disk-full] " + line);
    }
}
