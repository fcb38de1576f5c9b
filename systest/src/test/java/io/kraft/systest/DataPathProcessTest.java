package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * 'kraft-cli start' as a real process under a real producer: killed with kill -9 in the middle of producing
 * and started again, it still has every record it acknowledged (acks=all), each exactly once and in order.
 */
class DataPathProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long CLIENT_WAIT_MS = 30_000;
    private static final String TOPIC = "acknowledged";
    private static final int PARTITIONS = 3;
    private static final int ACKED_BEFORE_KILL = 20_000;
    private static final int MAX_RECORDS = 500_000;

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    @Test
    void everyAcknowledgedRecordSurvivesKillNine() throws Exception {
        NodeConfigFile node = NodeConfigFile.combined(1, dataDir.resolve("node-1"));
        Path config = node.write();
        JvmProcess format = processes.run(JvmSpec.kraftCli("format",
                "format", "-c", config.toString(), "-t", MetaProperties.randomUuid()), WAIT);
        assertEquals(0, format.waitForExit(WAIT), format.describeLogs());
        String bootstrap = "127.0.0.1:" + node.brokerPort();

        JvmProcess first = start(config, "start-1");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all()
                    .get(CLIENT_WAIT_MS, TimeUnit.MILLISECONDS);
        }

        ConcurrentSkipListSet<Integer> acknowledged = new ConcurrentSkipListSet<>();
        AtomicBoolean stopSending = new AtomicBoolean();
        KafkaProducer<byte[], byte[]> producer = producer(bootstrap);
        Thread sender = new Thread(() -> {
            for (int seq = 0; seq < MAX_RECORDS && !stopSending.get(); seq++) {
                int sent = seq;
                try {
                    producer.send(record(sent), (metadata, failure) -> {
                        if (failure == null) {
                            acknowledged.add(sent);
                        }
                    });
                } catch (RuntimeException e) {
                    return; // the producer is closing or its buffer stayed full: the node is gone
                }
            }
        }, "sender");
        sender.start();
        long deadline = System.currentTimeMillis() + WAIT.toMillis();
        while (acknowledged.size() < ACKED_BEFORE_KILL) {
            assertTrue(System.currentTimeMillis() < deadline, "only " + acknowledged.size() + " records acknowledged"
                    + "\n" + first.describeLogs());
            Thread.sleep(10);
        }
        first.kill(WAIT);
        stopSending.set(true);
        // No retry may reach the restarted node: what was acknowledged before the kill is the claim under test.
        producer.close(Duration.ZERO);
        sender.join(WAIT.toMillis());
        NavigableSet<Integer> ackedAtKill = new TreeSet<>(acknowledged);
        assertTrue(ackedAtKill.size() >= ACKED_BEFORE_KILL);

        JvmProcess second = start(config, "start-2");
        BitSet consumed = readEverything(bootstrap);
        for (int seq : ackedAtKill) {
            assertTrue(consumed.get(seq), "acknowledged record " + seq + " is missing after kill -9 ("
                    + ackedAtKill.size() + " acknowledged, " + consumed.cardinality() + " read)");
        }
        int exitCode = second.stop(WAIT);
        assertTrue(exitCode == 0 || exitCode == 143, "exit code " + exitCode + "\n" + second.describeLogs());
    }

    private JvmProcess start(Path config, String name) {
        JvmProcess process = processes.start(JvmSpec.kraftCli(name, "start", "--config", config.toString()));
        process.waitForLogLine("kraft node 1 ready", WAIT);
        process.waitForLogLine("Broker 1 is unfenced", WAIT);
        return process;
    }

    private static ProducerRecord<byte[], byte[]> record(int seq) {
        byte[] key = ("key-" + (seq % 101)).getBytes(StandardCharsets.UTF_8);
        return new ProducerRecord<>(TOPIC, key, ByteBuffer.allocate(4).putInt(seq).array());
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "5000");
        return new KafkaProducer<>(props);
    }

    /**
     * Reads every partition from its start to its end offset: each sequence number at most once, increasing
     * within a partition (the default producer keeps order per partition).
     */
    private static BitSet readEverything(String bootstrap) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        BitSet seen = new BitSet();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(TOPIC, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofMillis(CLIENT_WAIT_MS));
            Map<Integer, Integer> lastByPartition = new HashMap<>();
            long deadline = System.currentTimeMillis() + CLIENT_WAIT_MS;
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                assertTrue(System.currentTimeMillis() < deadline, "could not read up to " + ends);
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    int seq = ByteBuffer.wrap(record.value()).getInt();
                    assertTrue(!seen.get(seq), "record " + seq + " is stored twice");
                    seen.set(seq);
                    Integer previous = lastByPartition.put(record.partition(), seq);
                    assertTrue(previous == null || previous < seq, "record " + seq + " after " + previous);
                }
            }
        }
        return seen;
    }
}
