package io.kraft.systest;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka Streams with {@code processing.guarantee=exactly_once_v2} on three combined nodes as real processes: a word
 * count (split, re-key through a repartition topic, count in a store backed by a changelog topic) reads its input
 * while one node is killed with kill -9 (the one coordinating the application's group) and later restarted. The
 * counts read back read_committed, the last value per word, become exact, and no committed count ever goes down or
 * past the exact one. The input size is {@code
 * -Dkraft.streams.records} (100,000 by default), its words come from {@code -Dkraft.seed}.
 */
class StreamsExactlyOnceProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final long ADMIN_WAIT_MS = 30_000;
    private static final String INPUT = "wc-input";
    private static final String OUTPUT = "wc-counts";
    private static final String APPLICATION_ID = "wc-eos";
    private static final int PARTITIONS = 3;
    private static final int VOCABULARY = 500;
    private static final int WORDS_PER_LINE = 3;

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    private CombinedCluster cluster;

    @Test
    void aWordCountWithExactlyOnceV2CountsExactlyThroughTheKillOfANode() throws Exception {
        int records = Integer.getInteger("kraft.streams.records", 100_000);
        long seed = Long.getLong("kraft.seed", System.nanoTime());
        report("input: " + records + " lines, seed " + seed + " (replay with -Dkraft.seed=" + seed + ")");
        cluster = new CombinedCluster(processes, dataDir, 3, WAIT, node -> node
                .with("broker.session.timeout.ms", "3000")
                .with("broker.connection.loss.grace.ms", "1000")
                .with("replica.fetch.backoff.ms", "100")
                .with("offsets.topic.num.partitions", "3")
                .with("group.initial.rebalance.delay.ms", "0"));
        cluster.startAll();
        try (Admin admin = cluster.admin()) {
            Map<String, String> safe = Map.of("min.insync.replicas", "2");
            admin.createTopics(List.of(new NewTopic(INPUT, PARTITIONS, (short) 3).configs(safe),
                    new NewTopic(OUTPUT, PARTITIONS, (short) 3).configs(safe))).all()
                    .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
            Map<String, Long> expected = produceInput(records, seed);

            long startedAtNanos = System.nanoTime();
            List<Throwable> replacedThreads = new ArrayList<>();
            try (KafkaStreams streams = new KafkaStreams(wordCount(), streamsConfig())) {
                streams.setUncaughtExceptionHandler(error -> {
                    synchronized (replacedThreads) {
                        replacedThreads.add(error);
                    }
                    report("stream thread failed, replaced: " + error);
                    return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
                });
                streams.start();

                awaitCommittedInput(admin, records * 3L / 10);
                int victim = admin.describeConsumerGroups(List.of(APPLICATION_ID)).describedGroups().get(APPLICATION_ID)
                        .get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS).coordinator().id();
                long committedAtKill = committedInput(admin);
                long killedAtNanos = System.nanoTime();
                cluster.kill(victim);
                report("kill -9 of node " + victim + " (the group's coordinator) with " + committedAtKill
                        + " input records committed, " + elapsedMs(startedAtNanos) + " ms into the run");
                awaitCommittedInput(admin, committedAtKill + 1);
                report("first input committed after the kill after " + elapsedMs(killedAtNanos) + " ms");
                awaitCommittedInput(admin, records * 6L / 10);
                cluster.restart(victim);
                report("node " + victim + " restarted " + elapsedMs(killedAtNanos) + " ms after its kill");
                awaitCommittedInput(admin, records);
                report("all " + records + " input records consumed and committed after " + elapsedMs(startedAtNanos)
                        + " ms; " + replacedThreads.size() + " stream threads replaced");
                // The counting tasks read the repartition topic behind the splitting ones: wait for their output.
                Map<String, Long> counted = awaitExactCounts(admin, expected);
                report(counted.size() + " word counts read read_committed, all exact (" + expected.values().stream()
                        .mapToLong(Long::longValue).sum() + " words), after " + elapsedMs(startedAtNanos) + " ms");
            }
        }
    }

    private static org.apache.kafka.streams.Topology wordCount() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(line -> Arrays.asList(line.split(" ")))
                .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                // In memory: the store is rebuilt from its changelog after a failure, which is what exactly-once
                // has to get right; RocksDB would add disk work on a small machine and nothing to the check.
                .count(Materialized.<String, Long>as(Stores.inMemoryKeyValueStore("counts"))
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                .toStream()
                .to(OUTPUT, Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    private Properties streamsConfig() {
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        config.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 3);
        config.put(StreamsConfig.topicPrefix("min.insync.replicas"), "2");
        config.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
        config.put(StreamsConfig.STATE_DIR_CONFIG, dataDir.resolve("streams-state").toString());
        config.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);
        config.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1_000);
        config.put(StreamsConfig.producerPrefix(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG), 5_000);
        config.put(StreamsConfig.RETRY_BACKOFF_MS_CONFIG, 50L);
        config.put(StreamsConfig.RECONNECT_BACKOFF_MS_CONFIG, 50L);
        config.put(StreamsConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200L);
        return config;
    }

    /** Writes the input lines (idempotent, acks=all) and answers the count each word must end with. */
    private Map<String, Long> produceInput(int lines, long seed) throws Exception {
        Random random = new Random(seed);
        Map<String, Long> expected = new HashMap<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 10), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < lines; i++) {
                StringBuilder line = new StringBuilder();
                for (int w = 0; w < WORDS_PER_LINE; w++) {
                    String word = "w" + random.nextInt(VOCABULARY);
                    expected.merge(word, 1L, Long::sum);
                    line.append(w == 0 ? "" : " ").append(word);
                }
                producer.send(new ProducerRecord<>(INPUT, Integer.toString(i), line.toString()));
            }
            producer.flush();
        }
        return expected;
    }

    /** The application's committed input offsets, summed over the partitions. */
    private static long committedInput(Admin admin) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(APPLICATION_ID)
                .partitionsToOffsetAndMetadata().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS);
        return committed.entrySet().stream().filter(e -> e.getKey().topic().equals(INPUT) && e.getValue() != null)
                .mapToLong(e -> e.getValue().offset()).sum();
    }

    private static void awaitCommittedInput(Admin admin, long atLeast) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> committedInput(admin) >= atLeast);
    }

    /**
     * Reads the output read_committed until the last count of each word is the expected one. A committed count never
     * goes down and never passes the expected one: either would mean an input line counted twice or a count lost.
     */
    private Map<String, Long> awaitExactCounts(Admin admin, Map<String, Long> expected) throws Exception {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Map<String, Long> counts = new TreeMap<>();
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new LongDeserializer())) {
            List<TopicPartition> partitions = IntStream.range(0, PARTITIONS).mapToObj(p -> new TopicPartition(OUTPUT, p))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadlineNanos = System.nanoTime() + WAIT.toNanos();
            while (!counts.equals(expected)) {
                if (System.nanoTime() - deadlineNanos > 0) {
                    throw new AssertionError("the word counts are not exact after " + WAIT + ": " + difference(expected,
                            counts) + "; output last stable offsets " + offsets(admin, IsolationLevel.READ_COMMITTED)
                            + ", high watermarks " + offsets(admin, IsolationLevel.READ_UNCOMMITTED));
                }
                for (ConsumerRecord<String, Long> record : consumer.poll(Duration.ofMillis(200))) {
                    Long before = counts.put(record.key(), record.value());
                    long limit = expected.getOrDefault(record.key(), 0L);
                    assertTrue(record.value() <= limit, "word " + record.key() + " counted " + record.value()
                            + " times, more than its " + limit + " (offset " + record.offset() + ")");
                    assertTrue(before == null || record.value() >= before, "the count of " + record.key()
                            + " went down from " + before + " to " + record.value() + " (offset " + record.offset() + ")");
                }
            }
        }
        return counts;
    }

    private static String difference(Map<String, Long> expected, Map<String, Long> counts) {
        long missingWords = expected.keySet().stream().filter(word -> !counts.containsKey(word)).count();
        long lowWords = expected.entrySet().stream()
                .filter(e -> counts.containsKey(e.getKey()) && counts.get(e.getKey()) < e.getValue()).count();
        long deficit = expected.entrySet().stream().mapToLong(e -> e.getValue() - counts.getOrDefault(e.getKey(), 0L))
                .sum();
        return missingWords + " words never counted, " + lowWords + " counted too few times, " + deficit
                + " occurrences short in all";
    }

    private static Map<TopicPartition, Long> offsets(Admin admin, IsolationLevel isolation) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        IntStream.range(0, PARTITIONS).forEach(p -> latest.put(new TopicPartition(OUTPUT, p), OffsetSpec.latest()));
        Map<TopicPartition, Long> offsets = new TreeMap<>(java.util.Comparator.comparingInt(TopicPartition::partition));
        admin.listOffsets(latest, new ListOffsetsOptions(isolation)).all().get(ADMIN_WAIT_MS, TimeUnit.MILLISECONDS)
                .forEach((tp, info) -> offsets.put(tp, info.offset()));
        return offsets;
    }

    private static long elapsedMs(long sinceNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos);
    }

    private static void report(String line) {
        System.out.println("[streams-eos] " + line);
    }
}
