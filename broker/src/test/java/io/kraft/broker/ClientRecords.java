package io.kraft.broker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes numbered records with kafka-clients and reads them back, checking each record against its number:
 * key, value, headers and timestamp are all derived from the sequence number, so a read-back record proves
 * itself. Shared by the data-path tests against a standalone broker and a combined node.
 */
public final class ClientRecords {
    public static final long BASE_TIMESTAMP_MS = 1_700_000_000_000L;
    private static final long WAIT_MS = 60_000;
    private static final int KEYS = 997;

    private ClientRecords() {
    }

    public static byte[] key(int seq) {
        return ("key-" + (seq % KEYS)).getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] value(int seq) {
        return ("value-" + seq + "-" + "x".repeat(seq % 40)).getBytes(StandardCharsets.UTF_8);
    }

    public static long timestamp(int seq) {
        return BASE_TIMESTAMP_MS + seq;
    }

    public static ProducerRecord<byte[], byte[]> record(String topic, int seq) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, null, timestamp(seq), key(seq), value(seq));
        record.headers().add("seq", ByteBuffer.allocate(4).putInt(seq).array());
        record.headers().add("origin", "kraft-test".getBytes(StandardCharsets.UTF_8));
        return record;
    }

    public static KafkaProducer<byte[], byte[]> producer(String bootstrap, Map<String, Object> overrides) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        props.putAll(overrides);
        return new KafkaProducer<>(props);
    }

    public static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, Map<String, Object> overrides) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.putAll(overrides);
        return new KafkaConsumer<>(props);
    }

    /**
     * Sends records {@code 0 .. count-1} and waits for every acknowledgement.
     *
     * @return the partition each record was acknowledged in, by sequence number
     */
    public static int[] produce(KafkaProducer<byte[], byte[]> producer, String topic, int count) throws Exception {
        List<Future<RecordMetadata>> acks = new ArrayList<>(count);
        for (int seq = 0; seq < count; seq++) {
            acks.add(producer.send(record(topic, seq)));
        }
        producer.flush();
        int[] partitions = new int[count];
        for (int seq = 0; seq < count; seq++) {
            partitions[seq] = acks.get(seq).get(WAIT_MS, TimeUnit.MILLISECONDS).partition();
        }
        return partitions;
    }

    /**
     * Reads {@code partitions} of {@code topic} from their beginning until {@code count} records arrived and
     * checks each: every sequence number exactly once, increasing within a partition, in the partition it was
     * acknowledged in, with its key, value, headers and timestamp.
     */
    public static void consumeAndVerify(KafkaConsumer<byte[], byte[]> consumer, String topic, int partitionCount,
                                        int count, int[] ackedPartitions) {
        List<TopicPartition> assigned = new ArrayList<>();
        for (int p = 0; p < partitionCount; p++) {
            assigned.add(new TopicPartition(topic, p));
        }
        consumer.assign(assigned);
        consumer.seekToBeginning(assigned);
        BitSet seen = new BitSet(count);
        Map<Integer, Integer> lastSeqByPartition = new HashMap<>();
        Map<Integer, Long> lastOffsetByPartition = new HashMap<>();
        int received = 0;
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (received < count) {
            assertTrue(System.currentTimeMillis() < deadline, "only " + received + " of " + count + " records arrived");
            ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(500));
            for (ConsumerRecord<byte[], byte[]> record : batch) {
                Header seqHeader = record.headers().lastHeader("seq");
                int seq = ByteBuffer.wrap(seqHeader.value()).getInt();
                assertTrue(seq >= 0 && seq < count, "unexpected sequence number " + seq);
                assertTrue(!seen.get(seq), "record " + seq + " arrived twice");
                seen.set(seq);
                received++;
                assertEquals(ackedPartitions[seq], record.partition(), "partition of record " + seq);
                Integer previousSeq = lastSeqByPartition.put(record.partition(), seq);
                assertTrue(previousSeq == null || previousSeq < seq, "record " + seq + " after " + previousSeq
                        + " in partition " + record.partition());
                Long previousOffset = lastOffsetByPartition.put(record.partition(), record.offset());
                assertTrue(previousOffset == null || previousOffset < record.offset(), "offsets go backwards");
                assertArrayEquals(key(seq), record.key(), "key of record " + seq);
                assertArrayEquals(value(seq), record.value(), "value of record " + seq);
                assertEquals(timestamp(seq), record.timestamp(), "timestamp of record " + seq);
                assertArrayEquals("kraft-test".getBytes(StandardCharsets.UTF_8),
                        record.headers().lastHeader("origin").value(), "header of record " + seq);
                assertEquals(2, record.headers().toArray().length, "headers of record " + seq);
            }
        }
        assertEquals(count, seen.cardinality());
        // Nothing beyond what was produced.
        assertTrue(consumer.poll(Duration.ofMillis(200)).isEmpty(), "records beyond the " + count + " produced");
    }
}
