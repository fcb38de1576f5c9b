package io.kraft.server.txn;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.WireClient;
import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consume-transform-produce with kafka-clients' {@code sendOffsetsToTransaction} against a combined node (KIP-98,
 * KIP-447): a transaction's group offsets become visible only when it commits, never when it aborts, survive a
 * restart, and a TxnOffsetCommit from a stale generation or member is refused and changes nothing.
 */
class ExactlyOnceProcessingTest {
    private static final String INPUT = "eos-in";
    private static final String OUTPUT = "eos-out";
    private static final String GROUP = "eos-group";
    private static final List<TopicPartition> INPUT_PARTITIONS =
            List.of(new TopicPartition(INPUT, 0), new TopicPartition(INPUT, 1));

    @TempDir
    Path dir;
    private TestNode node;

    @BeforeEach
    void start() throws Exception {
        node = new TestNode(dir, Map.of("group.initial.rebalance.delay.ms", "0")).start();
        node.createTopic(INPUT, 2, Map.of());
        node.createTopic(OUTPUT, 2, Map.of());
    }

    @AfterEach
    void stop() {
        node.close();
    }

    @Test
    void aConsumeTransformProduceLoopProcessesEveryInputRecordExactlyOnce() throws Exception {
        int inputCount = 500;
        produceInput(0, inputCount);
        int committed = 0;
        int aborted = 0;
        try (KafkaConsumer<String, String> consumer = groupConsumer();
             KafkaProducer<String, String> producer = producer("eos-loop")) {
            producer.initTransactions();
            consumer.subscribe(List.of(INPUT));
            while (!committedOffsetsReach(endOffsets())) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                producer.beginTransaction();
                transform(producer, records);
                producer.sendOffsetsToTransaction(nextOffsets(consumer, records), consumer.groupMetadata());
                if ((committed + aborted) % 10 == 9) {
                    producer.abortTransaction();
                    aborted++;
                    rewindToCommitted(consumer);
                } else {
                    producer.commitTransaction();
                    committed++;
                }
            }
            assertTrue(committed + aborted >= 100, "transactions: " + committed + " committed, " + aborted + " aborted");
            assertTrue(aborted >= 10, "aborted: " + aborted);

            // One more transaction over new input, aborted: its offsets never become the group's.
            produceInput(inputCount, 10);
            Map<TopicPartition, Long> beforeAbort = endOffsetsMinus(10);
            ConsumerRecords<String, String> tail = pollAtLeast(consumer, 10);
            producer.beginTransaction();
            transform(producer, tail);
            producer.sendOffsetsToTransaction(nextOffsets(consumer, tail), consumer.groupMetadata());
            producer.abortTransaction();
            // The ABORT marker reaches __consumer_offsets after EndTxn is answered; until then a stable read has
            // nothing to say about those partitions (UNSTABLE_OFFSET_COMMIT).
            awaitStableOffsets(beforeAbort);
        }
        // A new consumer of the group resumes from the last committed transaction's offsets and finishes the input.
        try (KafkaConsumer<String, String> consumer = groupConsumer();
             KafkaProducer<String, String> producer = producer("eos-loop")) {
            producer.initTransactions();
            consumer.subscribe(List.of(INPUT));
            ConsumerRecords<String, String> rest = pollAtLeast(consumer, 10);
            assertEquals(10, rest.count(), "exactly the records after the last committed offsets");
            producer.beginTransaction();
            transform(producer, rest);
            producer.sendOffsetsToTransaction(nextOffsets(consumer, rest), consumer.groupMetadata());
            producer.commitTransaction();
        }
        awaitStableOffsets(endOffsets());
        Map<String, Integer> outputs = readCommittedOutput(inputCount + 10);
        assertEquals(inputCount + 10, outputs.size(), "every input record has an output");
        assertTrue(outputs.values().stream().allMatch(count -> count == 1),
                "duplicates: " + outputs.entrySet().stream().filter(e -> e.getValue() > 1).toList());
    }

    @Test
    void committedTransactionalOffsetsSurviveARestartAndAbortedOrOpenOnesDoNot() throws Exception {
        produceInput(0, 30);
        ConsumerGroupMetadata group = new ConsumerGroupMetadata(GROUP);
        Map<TopicPartition, OffsetAndMetadata> first = Map.of(INPUT_PARTITIONS.get(0), new OffsetAndMetadata(5),
                INPUT_PARTITIONS.get(1), new OffsetAndMetadata(7));
        KafkaProducer<String, String> producer = producer("eos-restart");
        try {
            producer.initTransactions();
            producer.beginTransaction();
            producer.sendOffsetsToTransaction(first, group);
            producer.commitTransaction();
            producer.beginTransaction();
            producer.sendOffsetsToTransaction(Map.of(INPUT_PARTITIONS.get(0), new OffsetAndMetadata(9)), group);
            producer.abortTransaction();
            producer.beginTransaction();
            producer.sendOffsetsToTransaction(Map.of(INPUT_PARTITIONS.get(1), new OffsetAndMetadata(11)), group);
            // left open across the restart
        } finally {
            producer.close(Duration.ZERO);
        }
        assertEquals(Map.of(INPUT_PARTITIONS.get(0), 5L, INPUT_PARTITIONS.get(1), 7L), committedOffsets(false));
        node.restart();
        assertEquals(Map.of(INPUT_PARTITIONS.get(0), 5L, INPUT_PARTITIONS.get(1), 7L), committedOffsets(false),
                "loaded from __consumer_offsets: the committed transaction's offsets, not the aborted or open one's");
        // The next producer with the id aborts the open transaction; its offset never shows.
        try (KafkaProducer<String, String> next = producer("eos-restart")) {
            next.initTransactions();
        }
        awaitStableOffsets(Map.of(INPUT_PARTITIONS.get(0), 5L, INPUT_PARTITIONS.get(1), 7L));
    }

    @Test
    void aTxnOffsetCommitFromAStaleGenerationOrMemberIsRefusedAndChangesNothing() throws Exception {
        produceInput(0, 10);
        try (KafkaConsumer<String, String> consumer = groupConsumer();
             KafkaProducer<String, String> producer = producer("eos-fenced")) {
            producer.initTransactions();
            consumer.subscribe(List.of(INPUT));
            ConsumerRecords<String, String> records = pollAtLeast(consumer, 10);
            ConsumerGroupMetadata live = consumer.groupMetadata();
            Map<TopicPartition, OffsetAndMetadata> offsets = nextOffsets(consumer, records);
            producer.beginTransaction();
            producer.sendOffsetsToTransaction(Map.of(INPUT_PARTITIONS.get(0), new OffsetAndMetadata(1)), live);
            producer.commitTransaction();

            producer.beginTransaction();
            ConsumerGroupMetadata stale = new ConsumerGroupMetadata(GROUP, live.generationId() + 5, live.memberId(),
                    live.groupInstanceId());
            KafkaException refused = assertThrows(KafkaException.class,
                    () -> producer.sendOffsetsToTransaction(offsets, stale));
            assertInstanceOf(CommitFailedException.class, refused instanceof CommitFailedException
                    ? refused : refused.getCause(), refused.toString());

            // The same on the wire, with the producer's open transaction (its offsets partition added above).
            TransactionDescription open = node.admin().describeTransactions(List.of("eos-fenced"))
                    .description("eos-fenced").get(30, TimeUnit.SECONDS);
            assertEquals(Errors.ILLEGAL_GENERATION, txnOffsetCommit("eos-fenced", open.producerId(),
                    open.producerEpoch(), live.generationId() + 5, live.memberId()));
            assertEquals(Errors.UNKNOWN_MEMBER_ID, txnOffsetCommit("eos-fenced", open.producerId(),
                    open.producerEpoch(), live.generationId(), "stranger"));
            producer.abortTransaction();
        }
        assertEquals(Map.of(INPUT_PARTITIONS.get(0), 1L), committedOffsets(true), "nothing changed");
    }

    @Test
    void aTxnOffsetCommitOutsideTheTransactionOrWithAStaleEpochIsRefused() throws Exception {
        ConsumerGroupMetadata group = new ConsumerGroupMetadata(GROUP);
        try (KafkaProducer<String, String> first = producer("eos-state")) {
            first.initTransactions(); // epoch 0, fenced by the next one
        }
        try (KafkaProducer<String, String> producer = producer("eos-state")) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.sendOffsetsToTransaction(Map.of(INPUT_PARTITIONS.get(0), new OffsetAndMetadata(2)), group);
            producer.commitTransaction();

            producer.beginTransaction();
            producer.send(new ProducerRecord<>(OUTPUT, 0, "k", "v")).get(30, TimeUnit.SECONDS);
            TransactionDescription open = node.admin().describeTransactions(List.of("eos-state"))
                    .description("eos-state").get(30, TimeUnit.SECONDS);
            assertEquals(1, open.producerEpoch());
            assertEquals(Errors.INVALID_TXN_STATE,
                    txnOffsetCommit("eos-state", open.producerId(), open.producerEpoch(), -1, ""),
                    "AddOffsetsToTxn has not added the group's partition to this transaction");
            producer.sendOffsetsToTransaction(Map.of(INPUT_PARTITIONS.get(0), new OffsetAndMetadata(3)), group);
            assertEquals(Errors.INVALID_PRODUCER_EPOCH,
                    txnOffsetCommit("eos-state", open.producerId(), open.producerEpoch() - 1, -1, ""));
            producer.commitTransaction();
        }
        awaitStableOffsets(Map.of(INPUT_PARTITIONS.get(0), 3L));
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private Errors txnOffsetCommit(String transactionalId, long producerId, int producerEpoch, int generation,
                                   String memberId) throws Exception {
        TxnOffsetCommitRequestData data = new TxnOffsetCommitRequestData().setTransactionalId(transactionalId)
                .setGroupId(GROUP).setProducerId(producerId).setProducerEpoch((short) producerEpoch)
                .setGenerationIdOrMemberEpoch(generation).setMemberId(memberId)
                .setTopics(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic().setName(INPUT)
                        .setPartitions(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition()
                                .setPartitionIndex(0).setCommittedOffset(99)))));
        try (WireClient client = new WireClient(node.port())) {
            short version = 3;
            int id = client.send(ApiKeys.TXN_OFFSET_COMMIT, version, data);
            TxnOffsetCommitResponseData response = new TxnOffsetCommitResponseData(
                    client.receive(ApiKeys.TXN_OFFSET_COMMIT, version, id), version);
            return Errors.forCode(response.topics().get(0).partitions().get(0).errorCode());
        }
    }

    private static void transform(KafkaProducer<String, String> producer, ConsumerRecords<String, String> records) {
        for (ConsumerRecord<String, String> record : records) {
            producer.send(new ProducerRecord<>(OUTPUT, record.key(), "out-" + record.value()));
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> nextOffsets(KafkaConsumer<String, String> consumer,
                                                                      ConsumerRecords<String, String> records) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : records.partitions()) {
            offsets.put(tp, new OffsetAndMetadata(consumer.position(tp)));
        }
        return offsets;
    }

    private static void rewindToCommitted(KafkaConsumer<String, String> consumer) {
        Set<TopicPartition> assigned = consumer.assignment();
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(assigned, Duration.ofSeconds(30));
        for (TopicPartition tp : assigned) {
            OffsetAndMetadata offset = committed.get(tp);
            consumer.seek(tp, offset == null ? 0 : offset.offset());
        }
    }

    private static ConsumerRecords<String, String> pollAtLeast(KafkaConsumer<String, String> consumer, int count) {
        Map<TopicPartition, List<ConsumerRecord<String, String>>> all = new HashMap<>();
        Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
        int[] seen = {0};
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
            for (TopicPartition tp : records.partitions()) {
                all.computeIfAbsent(tp, p -> new ArrayList<>()).addAll(records.records(tp));
                next.put(tp, new OffsetAndMetadata(consumer.position(tp)));
                seen[0] += records.records(tp).size();
            }
            return seen[0] >= count;
        });
        return new ConsumerRecords<>(all, next);
    }

    private void produceInput(int from, int count) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(INPUT, i % 2, "k" + i, "in-" + i));
            }
            producer.flush();
        }
    }

    private Map<TopicPartition, Long> endOffsets() throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        INPUT_PARTITIONS.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
        return node.admin().listOffsets(latest).all().get(30, TimeUnit.SECONDS).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    /** The end offsets before the last {@code count} input records (written alternately to the two partitions). */
    private Map<TopicPartition, Long> endOffsetsMinus(int count) throws Exception {
        Map<TopicPartition, Long> end = new HashMap<>(endOffsets());
        end.replaceAll((tp, offset) -> offset - count / 2);
        return end;
    }

    private boolean committedOffsetsReach(Map<TopicPartition, Long> end) throws Exception {
        return committedOffsets(false).equals(end);
    }

    /**
     * Waits until a stable read of the group's offsets gives {@code expected}: a commit or abort is answered once the
     * coordinator decided it, and its marker reaches __consumer_offsets a moment later (until then a stable read
     * leaves those partitions out, as UNSTABLE_OFFSET_COMMIT).
     */
    private void awaitStableOffsets(Map<TopicPartition, Long> expected) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertEquals(expected, committedOffsets(true)));
    }

    /** The group's committed offsets through Admin; with {@code requireStable}, after pending transactions end. */
    private Map<TopicPartition, Long> committedOffsets(boolean requireStable) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = node.admin().listConsumerGroupOffsets(GROUP,
                        new ListConsumerGroupOffsetsOptions().requireStable(requireStable))
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        Map<TopicPartition, Long> result = new HashMap<>();
        offsets.forEach((tp, offset) -> {
            if (offset != null) {
                result.put(tp, offset.offset());
            }
        });
        return result;
    }

    private Map<String, Integer> readCommittedOutput(int expected) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        Map<String, Integer> counts = new HashMap<>();
        List<TopicPartition> partitions = List.of(new TopicPartition(OUTPUT, 0), new TopicPartition(OUTPUT, 1));
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> counts.merge(r.value(), 1, Integer::sum));
                return partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp));
            });
        }
        assertTrue(counts.size() <= expected, "unexpected outputs: " + counts.size());
        return counts;
    }

    private KafkaConsumer<String, String> groupConsumer() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5");
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    private KafkaProducer<String, String> producer(String transactionalId) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap());
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }
}
