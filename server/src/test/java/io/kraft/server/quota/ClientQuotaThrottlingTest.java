package io.kraft.server.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.ClientRecords;
import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real producer and a real consumer held to a 1 MB/s client-id quota: the broker answers with throttle_time_ms and
 * mutes the connection, the Kafka client backs off, and a client of another client id is not slowed. Rates are
 * measured over one full quota period (11 windows of 1 s) after the first few seconds: Kafka's windowed rate lets a
 * fresh client burst up to the whole period's allowance, so shorter spans swing with where the burst falls.
 */
class ClientQuotaThrottlingTest {
    private static final double QUOTA = 1_048_576;
    private static final long WARMUP_MS = 4_000;
    private static final long MEASURE_MS = 11_000;
    private static final int VALUE_BYTES = 10_000;

    @TempDir
    Path dir;

    /** Bytes acknowledged (or consumed) with the time since the client started, to measure a span of them. */
    private static final class Progress {
        private final long startNanos = System.nanoTime();
        private final List<long[]> events = Collections.synchronizedList(new ArrayList<>());

        void add(long bytes) {
            events.add(new long[] {(System.nanoTime() - startNanos) / 1_000_000, bytes});
        }

        long elapsedMs() {
            return (System.nanoTime() - startNanos) / 1_000_000;
        }

        double bytesPerSecond(long fromMs, long toMs) {
            long bytes;
            synchronized (events) {
                bytes = events.stream().filter(e -> e[0] >= fromMs && e[0] < toMs).mapToLong(e -> e[1]).sum();
            }
            return bytes * 1000.0 / (toMs - fromMs);
        }
    }

    private static void limit(Admin admin, String clientId, String key) throws Exception {
        limit(admin, clientId, key, QUOTA);
    }

    private static void limit(Admin admin, String clientId, String key, double value) throws Exception {
        admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, clientId)),
                List.of(new ClientQuotaAlteration.Op(key, value))))).all().get(TestNode.WAIT_MS, TimeUnit.MILLISECONDS);
    }

    /** A client-wide metric of the given group (Kafka's clients tag it with the client id only). */
    private static double metric(Map<org.apache.kafka.common.MetricName, ? extends Metric> metrics, String group,
                                 String name) {
        return metrics.entrySet().stream()
                .filter(e -> e.getKey().group().equals(group) && e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).findFirst().orElse(Double.NaN);
    }

    private static Thread sendUntil(KafkaProducer<byte[], byte[]> producer, String topic, Progress progress,
                                    long untilMs, AtomicReference<Exception> failure) {
        byte[] value = new byte[VALUE_BYTES];
        ThreadLocalRandom.current().nextBytes(value);
        Thread thread = new Thread(() -> {
            while (progress.elapsedMs() < untilMs && failure.get() == null) {
                producer.send(new ProducerRecord<>(topic, value), (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    } else {
                        progress.add(VALUE_BYTES);
                    }
                });
            }
        }, "send-" + topic);
        thread.start();
        return thread;
    }

    @Test
    void aProducerIsHeldToItsQuotaWhileAnotherClientIsNot() throws Exception {
        try (TestNode node = new TestNode(dir, Map.of()).start()) {
            node.createTopic("limited", 1, Map.of());
            node.createTopic("free", 1, Map.of());
            limit(node.admin(), "limited-producer", "producer_byte_rate");
            AtomicReference<Exception> failure = new AtomicReference<>();
            Map<String, Object> settings = Map.of(ProducerConfig.ACKS_CONFIG, "1", ProducerConfig.LINGER_MS_CONFIG, 5);
            try (KafkaProducer<byte[], byte[]> limited = ClientRecords.producer(node.bootstrap(),
                    with(settings, ProducerConfig.CLIENT_ID_CONFIG, "limited-producer"));
                 KafkaProducer<byte[], byte[]> free = ClientRecords.producer(node.bootstrap(),
                         with(settings, ProducerConfig.CLIENT_ID_CONFIG, "free-producer"))) {
                Progress limitedProgress = new Progress();
                Progress freeProgress = new Progress();
                long runMs = WARMUP_MS + MEASURE_MS;
                Thread a = sendUntil(limited, "limited", limitedProgress, runMs, failure);
                Thread b = sendUntil(free, "free", freeProgress, 5_000, failure);
                a.join();
                b.join();
                limited.flush();
                free.flush();
                assertEquals(null, failure.get());
                double limitedRate = limitedProgress.bytesPerSecond(WARMUP_MS, runMs);
                double freeRate = freeProgress.bytesPerSecond(0, 5_000);
                System.out.printf("limited producer %.0f B/s, free producer %.0f B/s%n", limitedRate, freeRate);
                assertTrue(Math.abs(limitedRate - QUOTA) <= QUOTA * 0.10,
                        "the limited producer's rate " + limitedRate + " is within 10% of " + QUOTA);
                assertTrue(metric(limited.metrics(), "producer-metrics", "produce-throttle-time-avg") > 0,
                        "the limited producer saw throttle time");
                assertTrue(freeRate > 3 * QUOTA, "the free producer is not held to the quota: " + freeRate);
                assertEquals(0.0, metric(free.metrics(), "producer-metrics", "produce-throttle-time-max"),
                        "the free producer was never throttled");
                var jmx = java.lang.management.ManagementFactory.getPlatformMBeanServer();
                var byteRate = jmx.queryNames(new javax.management.ObjectName(
                        "kafka.server:type=Produce,name=byte-rate,*"), null);
                assertTrue(byteRate.stream().anyMatch(name -> "limited-producer".equals(
                        name.getKeyProperty("client-id"))), "the quota's byte-rate is in JMX: " + byteRate);
            }
        }
    }

    @Test
    void aConsumerIsHeldToItsQuota() throws Exception {
        try (TestNode node = new TestNode(dir, Map.of()).start()) {
            node.createTopic("backlog", 1, Map.of());
            try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(node.bootstrap(),
                    Map.of(ProducerConfig.LINGER_MS_CONFIG, 5))) {
                byte[] value = new byte[VALUE_BYTES];
                for (int i = 0; i < 3_000; i++) {
                    producer.send(new ProducerRecord<>("backlog", value));
                }
                producer.flush();
            }
            limit(node.admin(), "limited-consumer", "consumer_byte_rate");
            try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(node.bootstrap(), Map.of(
                    ConsumerConfig.CLIENT_ID_CONFIG, "limited-consumer",
                    ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 128 * 1024))) {
                consumer.assign(List.of(new TopicPartition("backlog", 0)));
                Progress progress = new Progress();
                long runMs = WARMUP_MS + MEASURE_MS;
                while (progress.elapsedMs() < runMs) {
                    long bytes = 0;
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(java.time.Duration.ofMillis(200))) {
                        bytes += record.value().length;
                    }
                    if (bytes > 0) {
                        progress.add(bytes);
                    }
                }
                double rate = progress.bytesPerSecond(WARMUP_MS, runMs);
                System.out.printf("limited consumer %.0f B/s%n", rate);
                assertTrue(Math.abs(rate - QUOTA) <= QUOTA * 0.10,
                        "the limited consumer's rate " + rate + " is within 10% of " + QUOTA);
                assertTrue(metric(consumer.metrics(), "consumer-fetch-manager-metrics", "fetch-throttle-time-avg") > 0,
                        "the limited consumer saw throttle time");
            }
        }
    }

    private static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
        Map<String, Object> copy = new java.util.HashMap<>(base);
        copy.put(key, value);
        return copy;
    }

    @Test
    void aClientOverItsRequestPercentageIsThrottled() throws Exception {
        try (TestNode node = new TestNode(dir, Map.of()).start()) {
            node.createTopic("busy", 1, Map.of());
            // 0.1 % of one handler thread: 1 ms of handler time per second, less than the producer asks for.
            limit(node.admin(), "busy-producer", "request_percentage", 0.1);
            try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(node.bootstrap(), Map.of(
                    ProducerConfig.CLIENT_ID_CONFIG, "busy-producer", ProducerConfig.LINGER_MS_CONFIG, 0,
                    ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1))) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                int acked = 0;
                while (System.nanoTime() < deadline) {
                    producer.send(new ProducerRecord<>("busy", new byte[100])).get();
                    acked++;
                }
                double throttle = metric(producer.metrics(), "producer-metrics", "produce-throttle-time-max");
                System.out.printf("busy producer: %d acks in 3 s, produce-throttle-time-max %.0f ms%n", acked,
                        throttle);
                assertTrue(throttle > 0, "the busy producer saw throttle time");
                assertTrue(throttle <= 1000, "a request-time throttle is at most one window: " + throttle);
            }
        }
    }
}
