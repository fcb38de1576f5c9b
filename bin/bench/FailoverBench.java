import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Leader failover under an idempotent acks=all producer, for bin/bench-vs-kafka (compiled by the script against Apache Kafka's
 * client jars). Produces numbered records to partition 0 of TOPIC; once acknowledgements flow
 * steadily it prints "leader ID" for the script, which kills that node with kill -9 and writes the time of the kill
 * (epoch ms) to KILLED_FILE. It then measures the time from the kill to the acknowledgement of the first record
 * sent after it, produces a few seconds more, reads the partition back and counts acknowledged records missing and
 * records present more than once.
 * <pre>
 *   java -cp 'libs/*:classes' FailoverBench BOOTSTRAP TOPIC KILLED_FILE
 * </pre>
 * Prints "result failover-ms lost duplicated" on stdout (failover-ms -1 if no record was acknowledged in 120 s).
 */
public final class FailoverBench {
    private static final int IN_FLIGHT = 200;

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        Path killedFile = Path.of(args[2]);
        TopicPartition partition = new TopicPartition(topic, 0);
        Map<Long, Long> sentAtMs = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<long[]> acks = new ConcurrentLinkedQueue<>(); // {sequence, ack time ms}
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        Properties props = BenchClients.clientProperties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "1");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        props.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, "20");
        props.put(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, "20");
        props.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200");
        long failoverMs = -1;
        long sequence = 0;
        try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            long steadyUntil = System.currentTimeMillis() + 3_000;
            Long killedAt = null;
            long deadline = Long.MAX_VALUE;
            while (System.currentTimeMillis() < deadline) {
                inFlight.acquire();
                long seq = sequence++;
                sentAtMs.put(seq, System.currentTimeMillis());
                producer.send(new ProducerRecord<>(topic, 0, null, Long.toString(seq)), (metadata, error) -> {
                    inFlight.release();
                    if (error == null) {
                        acks.add(new long[] {seq, System.currentTimeMillis()});
                    }
                });
                long now = System.currentTimeMillis();
                if (steadyUntil > 0 && now >= steadyUntil) {
                    System.out.println("leader " + leader(bootstrap, partition));
                    System.out.flush();
                    steadyUntil = 0;
                }
                if (steadyUntil == 0 && killedAt == null && Files.exists(killedFile)) {
                    String text = Files.readString(killedFile, StandardCharsets.UTF_8).trim();
                    if (!text.isEmpty()) {
                        killedAt = Long.parseLong(text);
                        deadline = killedAt + 120_000;
                    }
                }
                if (killedAt != null && failoverMs < 0) {
                    failoverMs = firstAckAfter(acks, sentAtMs, killedAt);
                    if (failoverMs >= 0) {
                        deadline = now + 3_000;
                    }
                }
                Thread.sleep(0, 200_000);
            }
            producer.flush();
        }
        Map<Long, Integer> seen = readBack(bootstrap, partition);
        long lost = acks.stream().filter(a -> !seen.containsKey(a[0])).count();
        long duplicated = seen.values().stream().filter(n -> n > 1).count();
        System.out.println("result " + failoverMs + " " + lost + " " + duplicated);
    }

    /** Milliseconds from the kill to the acknowledgement of the first record sent after it, or -1 if none yet. */
    private static long firstAckAfter(ConcurrentLinkedQueue<long[]> acks, Map<Long, Long> sentAtMs, long killedAt) {
        long first = -1;
        for (long[] ack : acks) {
            if (sentAtMs.get(ack[0]) > killedAt && (first < 0 || ack[1] < first)) {
                first = ack[1];
            }
        }
        return first < 0 ? -1 : first - killedAt;
    }

    private static int leader(String bootstrap, TopicPartition partition) throws Exception {
        Properties props = BenchClients.clientProperties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            return admin.describeTopics(List.of(partition.topic())).allTopicNames().get().get(partition.topic())
                    .partitions().get(partition.partition()).leader().id();
        }
    }

    /** How often each sequence number is in the partition. */
    private static Map<Long, Integer> readBack(String bootstrap, TopicPartition partition) throws IOException {
        Properties props = BenchClients.clientProperties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Map<Long, Integer> seen = new HashMap<>();
        try (KafkaConsumer<String, String> consumer =
                     new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), Duration.ofSeconds(60)).get(partition);
            while (consumer.position(partition) < end) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    seen.merge(Long.parseLong(record.value()), 1, Integer::sum);
                }
            }
        }
        return seen;
    }

}
