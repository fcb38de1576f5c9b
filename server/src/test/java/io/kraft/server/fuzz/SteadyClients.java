package io.kraft.server.fuzz;

import io.kraft.broker.ClientRecords;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The well-behaved clients beside the fuzzer: the default kafka-clients producer (idempotent, acks=all) writing
 * numbered records to one topic, and a consumer reading them as they come. At the end every acknowledged record
 * must have been read exactly once, and no send may have failed.
 */
final class SteadyClients implements AutoCloseable {
    private final String topic;
    private final int partitions;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread producing;
    private final Thread consuming;
    private final BitSet acked = new BitSet();
    private final BitSet consumed = new BitSet();
    private final AtomicInteger duplicates = new AtomicInteger();
    private final ConcurrentLinkedQueue<Exception> failures = new ConcurrentLinkedQueue<>();
    private final AtomicLong sent = new AtomicLong();
    private volatile boolean producingStopped;
    private volatile boolean consumingStopped;

    SteadyClients(String bootstrap, String topic, int partitions) {
        this.topic = topic;
        this.partitions = partitions;
        this.producer = ClientRecords.producer(bootstrap, Map.of());
        this.consumer = ClientRecords.consumer(bootstrap, Map.of());
        this.producing = new Thread(this::produce, "steady-producer");
        this.consuming = new Thread(this::consume, "steady-consumer");
    }

    void start() {
        List<TopicPartition> assigned = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            assigned.add(new TopicPartition(topic, p));
        }
        consumer.assign(assigned);
        consumer.seekToBeginning(assigned);
        producing.start();
        consuming.start();
    }

    private void produce() {
        int seq = 0;
        while (!producingStopped) {
            int number = seq++;
            byte[] value = ByteBuffer.allocate(4).putInt(number).array();
            producer.send(new ProducerRecord<>(topic, ("k" + number).getBytes(), value), (metadata, error) -> {
                if (error != null) {
                    failures.add(error);
                } else {
                    synchronized (acked) {
                        acked.set(number);
                    }
                }
            });
            sent.incrementAndGet();
            if (number % 10 == 9) {
                try {
                    Thread.sleep(5); // about 2,000 records a second: steady traffic, not a load test
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
        producer.flush();
    }

    private void consume() {
        while (!consumingStopped) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                int number = ByteBuffer.wrap(record.value()).getInt();
                synchronized (consumed) {
                    if (consumed.get(number)) {
                        duplicates.incrementAndGet();
                    }
                    consumed.set(number);
                }
            }
        }
    }

    /** Stops producing, waits for every acknowledgement, then for the consumer to read all of them. */
    void finish(long timeoutMs) throws InterruptedException {
        producingStopped = true;
        producing.join(timeoutMs);
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline && missing() > 0) {
            Thread.sleep(100);
        }
        consumingStopped = true;
        consuming.join(timeoutMs);
    }

    long sent() {
        return sent.get();
    }

    int acked() {
        synchronized (acked) {
            return acked.cardinality();
        }
    }

    /** Acknowledged records the consumer has not read. */
    int missing() {
        BitSet unread;
        synchronized (acked) {
            unread = (BitSet) acked.clone();
        }
        synchronized (consumed) {
            unread.andNot(consumed);
        }
        return unread.cardinality();
    }

    int duplicates() {
        return duplicates.get();
    }

    List<Exception> failures() {
        return List.copyOf(failures);
    }

    @Override
    public void close() {
        producingStopped = true;
        consumingStopped = true;
        try {
            producing.join(10_000);
            consuming.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(5));
        consumer.close(Duration.ofSeconds(5));
    }
}
