package io.kraft.systest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The clients of a fault-injection run: idempotent acks=all producers sending unique values round-robin over the
 * partitions at a steady pace, and consumers in one group committing by hand after each poll, everything they see
 * recorded in a {@link ChaosHistory}. The final read of the whole topic is here too.
 */
final class ChaosWorkload {
    private static final String GROUP = "chaos-group";
    private static final int MAX_OUTSTANDING_SENDS = 200;
    private static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(10);

    private final String bootstrap;
    private final String topic;
    private final int partitions;
    private final ChaosHistory history;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicInteger consumerErrors = new AtomicInteger();
    private volatile boolean running = true;

    ChaosWorkload(String bootstrap, String topic, int partitions, ChaosHistory history) {
        this.bootstrap = bootstrap;
        this.topic = topic;
        this.partitions = partitions;
        this.history = history;
    }

    /** Starts {@code producers} producers sending one record each {@code intervalMs}, and {@code consumerCount} consumers. */
    void start(int producers, long intervalMs, int consumerCount) {
        for (int i = 0; i < producers; i++) {
            String name = "p" + i;
            threads.add(thread("chaos-producer-" + name, () -> produce(name, intervalMs)));
        }
        for (int i = 0; i < consumerCount; i++) {
            KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig(GROUP, "chaos-consumer-" + i),
                    new StringDeserializer(), new StringDeserializer());
            threads.add(thread("chaos-consumer-" + i, () -> consume(consumer)));
        }
        threads.forEach(Thread::start);
    }

    /** Stops sending, waits for every send's outcome, then stops the consumers. */
    void stop() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.join(TimeUnit.MINUTES.toMillis(3));
        }
    }

    int consumerErrors() {
        return consumerErrors.get();
    }

    private void produce(String name, long intervalMs) {
        Semaphore outstanding = new Semaphore(MAX_OUTSTANDING_SENDS);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(name), new StringSerializer(),
                new StringSerializer())) {
            for (long sequence = 0; running; sequence++) {
                while (!outstanding.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    if (!running) {
                        return;
                    }
                }
                String value = name + "-" + sequence;
                producer.send(new ProducerRecord<>(topic, (int) (sequence % partitions), value, value),
                        (metadata, error) -> {
                            outstanding.release();
                            if (error == null) {
                                history.acked(value, metadata.partition(), metadata.offset());
                            } else {
                                history.sendFailed();
                            }
                        });
                Thread.sleep(intervalMs);
            }
            // close() below waits for every send in flight to be acknowledged or to fail.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void consume(KafkaConsumer<String, String> consumer) {
        try (consumer) {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
                    // offsets are committed after every poll; nothing is pending
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
                    readBackCommitted(consumer, assigned);
                }
            });
            while (running) {
                try {
                    ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                    Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
                    for (ConsumerRecord<String, String> record : records) {
                        history.read(record.value(), record.partition(), record.offset());
                        next.put(new TopicPartition(record.topic(), record.partition()),
                                new OffsetAndMetadata(record.offset() + 1));
                    }
                    if (!next.isEmpty()) {
                        consumer.commitSync(next, COMMIT_TIMEOUT);
                        next.forEach((partition, offset) -> history.committed(partition.partition(), offset.offset()));
                    }
                } catch (WakeupException e) {
                    return;
                } catch (RuntimeException e) {
                    // Expected while coordinators and leaders move: the next poll carries on.
                    consumerErrors.incrementAndGet();
                }
            }
        }
    }

    private void readBackCommitted(KafkaConsumer<String, String> consumer, Collection<TopicPartition> assigned) {
        Map<TopicPartition, Long> before = new HashMap<>();
        assigned.forEach(partition -> before.put(partition, history.highestCommit(partition.partition())));
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(java.util.Set.copyOf(assigned),
                    COMMIT_TIMEOUT);
            before.forEach((partition, highest) -> {
                OffsetAndMetadata offset = committed.get(partition);
                history.committedReadBack(partition.partition(), offset == null ? -1 : offset.offset(), highest);
            });
        } catch (RuntimeException e) {
            consumerErrors.incrementAndGet();
        }
    }

    /** Reads every partition from the start to its end offset with a fresh consumer outside the group. */
    List<ChaosHistory.Read> readEverything(Duration timeout) {
        List<ChaosHistory.Read> log = new ArrayList<>();
        try (KafkaConsumer<String, String> reader = new KafkaConsumer<>(consumerConfig(null, "chaos-final-reader"),
                new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> all = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition(topic, p));
            }
            reader.assign(all);
            Map<TopicPartition, Long> end = reader.endOffsets(all, timeout);
            reader.seekToBeginning(all);
            long deadlineNanos = System.nanoTime() + timeout.toNanos();
            while (all.stream().anyMatch(p -> reader.position(p, timeout) < end.get(p))) {
                if (System.nanoTime() - deadlineNanos > 0) {
                    throw new AssertionError("the final read did not reach the end offsets " + end);
                }
                for (ConsumerRecord<String, String> record : reader.poll(Duration.ofMillis(500))) {
                    log.add(new ChaosHistory.Read(record.value(), record.partition(), record.offset()));
                }
            }
        }
        return log;
    }

    private Map<String, Object> producerConfig(String name) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "chaos-producer-" + name);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        config.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 100);
        config.put(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, 50);
        config.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500);
        config.put(ProducerConfig.METADATA_MAX_AGE_CONFIG, 2_000);
        return config;
    }

    private Map<String, Object> consumerConfig(String group, String clientId) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        if (group != null) {
            config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1_000);
        config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
        config.put(ConsumerConfig.RETRY_BACKOFF_MS_CONFIG, 100);
        config.put(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500);
        config.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 2_000);
        return config;
    }

    private static Thread thread(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }
}
