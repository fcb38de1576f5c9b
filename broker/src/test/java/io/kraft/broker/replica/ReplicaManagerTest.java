package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.StandaloneBroker;
import io.kraft.broker.fetch.FetchIsolation;
import io.kraft.broker.fetch.FetchParams;
import io.kraft.broker.fetch.FetchPartitionRequest;
import io.kraft.broker.fetch.FetchReadiness;
import io.kraft.broker.fetch.PartitionRead;
import io.kraft.config.LogConfigs;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.EpochEndOffset;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.OffsetCheckpointFile;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.record.ControlRecordType;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replica manager driven directly: roles from metadata, the high watermark, purgatories, logs on disk. */
class ReplicaManagerTest {
    private static final long WAIT_S = 15;
    private static final TopicPartition TP = new TopicPartition("t", 0);

    @TempDir
    Path logDir;

    private StandaloneBroker broker;

    private ReplicaManager start(Map<String, String> properties) throws Exception {
        broker = new StandaloneBroker(logDir, properties);
        return broker.replicaManager();
    }

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    static ByteBuffer batch(int records) {
        SimpleRecord[] simple = new SimpleRecord[records];
        for (int i = 0; i < records; i++) {
            simple[i] = new SimpleRecord(1000L + i, ("k" + i).getBytes(), ("v" + i).getBytes());
        }
        return MemoryRecords.withRecords(Compression.NONE, simple).buffer();
    }

    private static PartitionProduceResult append(ReplicaManager rm, short acks, long timeoutMs, int records)
            throws Exception {
        return appendAsync(rm, acks, timeoutMs, records).get(WAIT_S, TimeUnit.SECONDS).get(TP);
    }

    private static CompletableFuture<Map<TopicPartition, PartitionProduceResult>> appendAsync(
            ReplicaManager rm, short acks, long timeoutMs, int records) {
        return rm.appendRecords(timeoutMs, acks, false, Map.of(TP, batch(records)));
    }

    private static CompletableFuture<LinkedHashMap<TopicPartition, PartitionRead>> fetch(
            ReplicaManager rm, int replicaId, long offset, long maxWaitMs, int lastFetchedEpoch) {
        LinkedHashMap<TopicPartition, FetchPartitionRequest> requests = new LinkedHashMap<>();
        requests.put(TP, new FetchPartitionRequest(offset, -1, lastFetchedEpoch, 1 << 20));
        return rm.fetchMessages(new FetchParams(replicaId, maxWaitMs, 1, 1 << 20), requests);
    }

    private static PartitionRead fetchNow(ReplicaManager rm, int replicaId, long offset) throws Exception {
        return fetch(rm, replicaId, offset, 0, -1).get(WAIT_S, TimeUnit.SECONDS).get(TP);
    }

    @Test
    void strayLogsGoOnlyOnceTheImageReachesTheOffsetAtWhichTheMetadataIsComplete() throws Exception {
        start(Map.of());
        UUID keptId = broker.createTopic("kept", 1, Map.of());
        broker.createTopic("gone", 1, Map.of());
        broker.close();

        // Restarted: the logs load from disk, the new image knows no topic yet.
        ReplicaManager rm = start(Map.of());
        rm.deleteStrayLogsOnceAt(2);
        assertTrue(Files.exists(logDir.resolve("gone-0")), "the image (offset 0) may only be behind");
        assertTrue(Files.exists(logDir.resolve("kept-0")));

        broker.createTopic("kept", keptId, 1, Map.of(), List.of(StandaloneBroker.BROKER_ID),
                List.of(StandaloneBroker.BROKER_ID));
        assertFalse(Files.exists(logDir.resolve("gone-0")), "at offset 2 a topic still missing was deleted");
        assertTrue(rm.partition(new TopicPartition("kept", 0)).isPresent());
        assertTrue(Files.exists(logDir.resolve("kept-0")));
    }

    @Test
    void aWaitingFetchCompletesWhenRecordsAreAppended() throws Exception {
        ReplicaManager rm = start(Map.of());
        broker.createTopic("t", 1, Map.of());
        CompletableFuture<LinkedHashMap<TopicPartition, PartitionRead>> waiting = fetch(rm, -1, 0, 60_000, -1);
        assertFalse(waiting.isDone(), "nothing to read yet: the fetch waits");
        assertEquals(1, rm.delayedFetchCount());
        assertEquals(Errors.NONE, append(rm, (short) -1, 1_000, 3).error());
        PartitionRead read = waiting.get(WAIT_S, TimeUnit.SECONDS).get(TP);
        assertEquals(Errors.NONE, read.error());
        assertTrue(read.sizeBytes() > 0);
        assertEquals(3, read.highWatermark());
        assertEquals(0, rm.delayedFetchCount());
    }

    @Test
    void aWaitingConsumerFetchCompletesOnlyWhenTheHighWatermarkPassesItsOffset() throws Exception {
        ReplicaManager rm = start(Map.of());
        broker.createTopic("t", UUID.randomUUID(), 1, Map.of(), List.of(1, 2), List.of(1, 2));
        CompletableFuture<LinkedHashMap<TopicPartition, PartitionRead>> consumer = fetch(rm, -1, 0, 60_000, -1);
        CompletableFuture<LinkedHashMap<TopicPartition, PartitionRead>> follower = fetch(rm, 2, 0, 60_000, -1);
        assertEquals(Errors.NONE, append(rm, (short) 1, 1_000, 3).error());
        assertTrue(follower.get(WAIT_S, TimeUnit.SECONDS).get(TP).sizeBytes() > 0, "the follower reads to the log end");
        assertFalse(consumer.isDone(), "the appended records are above the high watermark");

        fetchNow(rm, 2, 3);
        PartitionRead read = consumer.get(WAIT_S, TimeUnit.SECONDS).get(TP);
        assertEquals(3, read.highWatermark());
        assertTrue(read.sizeBytes() > 0);
    }

    @Test
    void aWaitingFetchWithMinBytesAboveOneBatchWaitsForEnoughBytes() throws Exception {
        ReplicaManager rm = start(Map.of());
        broker.createTopic("t", 1, Map.of());
        int oneBatch = batch(1).remaining();
        LinkedHashMap<TopicPartition, FetchPartitionRequest> requests = new LinkedHashMap<>();
        requests.put(TP, new FetchPartitionRequest(0, -1, -1, 1 << 20));
        CompletableFuture<LinkedHashMap<TopicPartition, PartitionRead>> waiting =
                rm.fetchMessages(new FetchParams(-1, 60_000, 3 * oneBatch, 1 << 20), requests);
        append(rm, (short) 1, 1_000, 1);
        append(rm, (short) 1, 1_000, 1);
        assertFalse(waiting.isDone(), "two batches are below min_bytes");
        append(rm, (short) 1, 1_000, 1);
        assertEquals(3 * oneBatch, waiting.get(WAIT_S, TimeUnit.SECONDS).get(TP).sizeBytes());
    }

    @Test
    void readinessJudgesFromOffsetsWhatAReadWouldAnswer() throws Exception {
        ReplicaManager rm = start(Map.of());
        broker.createTopic("t", UUID.randomUUID(), 1, Map.of(), List.of(1, 2), List.of(1, 2));
        Partition partition = rm.partition(TP).orElseThrow();
        append(rm, (short) 1, 1_000, 3);
        assertEquals(FetchReadiness.DATA, partition.readiness(0, -1, -1, 1024, FetchIsolation.LOG_END, true));
        assertEquals(FetchReadiness.NOTHING_NEW,
                partition.readiness(3, -1, -1, 1024, FetchIsolation.LOG_END, true), "at the log end");
        assertEquals(FetchReadiness.NOTHING_NEW,
                partition.readiness(0, -1, -1, 1024, FetchIsolation.HIGH_WATERMARK, true), "above the watermark");
        assertEquals(FetchReadiness.NOTHING_NEW,
                partition.readiness(0, -1, -1, 0, FetchIsolation.LOG_END, true), "no bytes asked for");
        assertEquals(FetchReadiness.ANSWER_NOW,
                partition.readiness(4, -1, -1, 1024, FetchIsolation.LOG_END, true), "past the log end");
        fetchNow(rm, 2, 3);
        assertEquals(FetchReadiness.DATA, partition.readiness(0, -1, -1, 1024, FetchIsolation.HIGH_WATERMARK, true));

        broker.bumpLeaderEpoch(partition.topicId(), 0);
        append(rm, (short) 1, 1_000, 2);
        assertEquals(FetchReadiness.ANSWER_NOW,
                partition.readiness(0, 0, -1, 1024, FetchIsolation.LOG_END, true), "an older leader epoch");
        assertEquals(FetchReadiness.ANSWER_NOW, partition.readiness(5, 1, 0, 1024, FetchIsolation.LOG_END, true),
                "epoch 0 ended at offset 3: the follower must truncate");
        assertEquals(FetchReadiness.DATA, partition.readiness(3, 1, 0, 1024, FetchIsolation.LOG_END, true));
    }

    @Test
    void followersFetchesMoveTheHighWatermarkAndCompleteAcksAllProduces() throws Exception {
        ReplicaManager rm = start(Map.of());
        broker.createTopic("t", UUID.randomUUID(), 1, Map.of(), List.of(1, 2), List.of(1, 2));
        CompletableFuture<Map<TopicPartition, PartitionProduceResult>> produced = appendAsync(rm, (short) -1, 60_000, 3);
        assertFalse(produced.isDone(), "acks=all waits for follower 2");
        assertEquals(0, fetchNow(rm, -1, 0).sizeBytes(), "consumers see nothing above the high watermark");

        PartitionRead followerRead = fetchNow(rm, 2, 0);
        assertEquals(Errors.NONE, followerRead.error());
        assertTrue(followerRead.sizeBytes() > 0, "followers read up to the log end");
        assertFalse(produced.isDone(), "the follower has not confirmed the records yet");

        fetchNow(rm, 2, 3);
        PartitionProduceResult result = produced.get(WAIT_S, TimeUnit.SECONDS).get(TP);
        assertEquals(Errors.NONE, result.error());
        assertEquals(0, result.baseOffset());
        PartitionRead consumerRead = fetchNow(rm, -1, 0);
        assertEquals(3, consumerRead.highWatermark());
        assertTrue(consumerRead.sizeBytes() > 0);
        assertEquals(Errors.NOT_LEADER_OR_FOLLOWER, fetchNow(rm, 3, 0).error(), "broker 3 is no replica");
    }

    @Test
    void aWaitingReadCommittedFetchCompletesWhenTheMarkerIsReplicated() throws Exception {
        ReplicaManager rm = start(Map.of());
        broker.createTopic("t", UUID.randomUUID(), 1, Map.of(), List.of(1, 2), List.of(1, 2));
        ByteBuffer txn = MemoryRecords.withTransactionalRecords(Compression.NONE, 5, (short) 0, 0,
                new SimpleRecord(1000L, "k".getBytes(), "v".getBytes()),
                new SimpleRecord(1000L, "k".getBytes(), "w".getBytes())).buffer();
        assertEquals(Errors.NONE, rm.appendRecords(1_000, (short) 1, false, Map.of(TP, txn))
                .get(WAIT_S, TimeUnit.SECONDS).get(TP).error());
        fetchNow(rm, 2, 2);
        CompletableFuture<Map<TopicPartition, Errors>> marker = rm.writeTxnMarkers(new TxnMarker(5, (short) 0, 0,
                ControlRecordType.COMMIT, List.of(TP)), 60_000);
        assertFalse(marker.isDone(), "the marker waits for follower 2, as acks=all does");

        LinkedHashMap<TopicPartition, FetchPartitionRequest> requests = new LinkedHashMap<>();
        requests.put(TP, new FetchPartitionRequest(0, -1, -1, 1 << 20));
        CompletableFuture<LinkedHashMap<TopicPartition, PartitionRead>> committed = rm.fetchMessages(
                new FetchParams(-1, 60_000, 1, 1 << 20, FetchIsolation.READ_COMMITTED), requests);
        assertTrue(fetchNow(rm, -1, 0).sizeBytes() > 0, "read_uncommitted reads up to the high watermark");
        assertFalse(committed.isDone(), "read_committed waits: the transaction's marker is not replicated yet");

        fetchNow(rm, 2, 3); // the follower has the marker: the high watermark passes it and the LSO moves
        assertEquals(Map.of(TP, Errors.NONE), marker.get(WAIT_S, TimeUnit.SECONDS));
        PartitionRead read = committed.get(WAIT_S, TimeUnit.SECONDS).get(TP);
        assertEquals(Errors.NONE, read.error());
        assertTrue(read.sizeBytes() > 0);
        assertEquals(3, read.lastStableOffset());
        assertEquals(List.of(), read.abortedTransactions());
    }

    @Test
    void acksAllAnswersRequestTimedOutWhenTheIsrDoesNotCatchUp() throws Exception {
        ReplicaManager rm = start(Map.of());
        broker.createTopic("t", UUID.randomUUID(), 1, Map.of(), List.of(1, 2), List.of(1, 2));
        PartitionProduceResult result = append(rm, (short) -1, 50, 2);
        assertEquals(Errors.REQUEST_TIMED_OUT, result.error());
        assertEquals(Errors.NONE, append(rm, (short) 1, 50, 2).error(), "acks=1 needs only the leader");
    }

    @Test
    void acksAllWithAnIsrBelowMinInsyncReplicasIsRefusedBeforeWriting() throws Exception {
        ReplicaManager rm = start(Map.of());
        broker.createTopic("t", UUID.randomUUID(), 1, Map.of("min.insync.replicas", "2"), List.of(1, 2), List.of(1));
        assertEquals(Errors.NOT_ENOUGH_REPLICAS, append(rm, (short) -1, 1_000, 2).error());
        assertEquals(0, rm.partition(TP).orElseThrow().logEndOffset());
        assertEquals(Errors.NONE, append(rm, (short) 1, 1_000, 2).error());
    }

    @Test
    void aFollowerWhoseLastEpochEndedEarlierIsToldToTruncate() throws Exception {
        ReplicaManager rm = start(Map.of());
        UUID topicId = broker.createTopic("t", UUID.randomUUID(), 1, Map.of(), List.of(1, 2), List.of(1));
        append(rm, (short) 1, 1_000, 3);
        broker.bumpLeaderEpoch(topicId, 0);
        append(rm, (short) 1, 1_000, 2);
        PartitionRead read = fetch(rm, 2, 5, 0, 0).get(WAIT_S, TimeUnit.SECONDS).get(TP);
        assertEquals(new EpochEndOffset(0, 3), read.divergingEpoch().orElseThrow(),
                "epoch 0 ended at offset 3, below the follower's fetch offset 5");
        assertEquals(0, read.sizeBytes());
        assertTrue(fetch(rm, 2, 3, 0, 0).get(WAIT_S, TimeUnit.SECONDS).get(TP).divergingEpoch().isEmpty());
        assertEquals(new EpochEndOffset(0, 3), rm.partition(TP).orElseThrow().endOffsetForEpoch(-1, 0, true));
        assertEquals(new EpochEndOffset(1, 5), rm.partition(TP).orElseThrow().endOffsetForEpoch(1, 1, true));
    }

    @Test
    void losingLeadershipCompletesWaitingRequestsWithNotLeader() throws Exception {
        ReplicaManager rm = start(Map.of());
        UUID topicId = broker.createTopic("t", UUID.randomUUID(), 1, Map.of(), List.of(1, 2), List.of(1, 2));
        List<String> events = new ArrayList<>();
        rm.addLeadershipListener(new PartitionLeadershipListener() {
            @Override
            public void onBecomeLeader(TopicPartition partition, int leaderEpoch) {
                events.add("lead " + partition + " " + leaderEpoch);
            }

            @Override
            public void onResign(TopicPartition partition) {
                events.add("resign " + partition);
            }
        });
        CompletableFuture<Map<TopicPartition, PartitionProduceResult>> produced = appendAsync(rm, (short) -1, 60_000, 1);
        CompletableFuture<LinkedHashMap<TopicPartition, PartitionRead>> waiting = fetch(rm, -1, 0, 60_000, -1);
        assertFalse(waiting.isDone());
        broker.moveLeader(topicId, 0, 2);
        assertEquals(Errors.NOT_LEADER_OR_FOLLOWER, produced.get(WAIT_S, TimeUnit.SECONDS).get(TP).error());
        assertEquals(Errors.NOT_LEADER_OR_FOLLOWER, waiting.get(WAIT_S, TimeUnit.SECONDS).get(TP).error());
        assertEquals(Errors.NOT_LEADER_OR_FOLLOWER, append(rm, (short) 1, 1_000, 1).error());
        assertFalse(rm.partition(TP).orElseThrow().isLeader());
        broker.moveLeader(topicId, 0, 1);
        assertEquals(List.of("resign t-0", "lead t-0 2"), events);
        assertEquals(Errors.NONE, append(rm, (short) 1, 1_000, 1).error(), "leader again in epoch 2");
    }

    @Test
    void aDeletedTopicsLogGoesAndARecreatedTopicStartsEmpty() throws Exception {
        ReplicaManager rm = start(Map.of());
        UUID first = broker.createTopic("t", 1, Map.of());
        append(rm, (short) 1, 1_000, 5);
        Path partitionDir = rm.partition(TP).orElseThrow().log().dir();
        assertTrue(Files.exists(partitionDir.resolve("partition.metadata")));
        broker.deleteTopic(first);
        assertTrue(rm.partition(TP).isEmpty());
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION, append(rm, (short) 1, 1_000, 1).error());
        broker.createTopic("t", 1, Map.of());
        Partition recreated = rm.partition(TP).orElseThrow();
        assertEquals(0, recreated.logEndOffset(), "nothing of the deleted topic remains");
        assertEquals(0, append(rm, (short) 1, 1_000, 1).baseOffset());
    }

    @Test
    void topicConfigChangesReachTheLog() throws Exception {
        ReplicaManager rm = start(Map.of());
        broker.createTopic("t", 1, Map.of("retention.ms", "3600000"));
        Log log = rm.partition(TP).orElseThrow().log();
        assertEquals(3_600_000L, log.config().retentionMs());
        broker.setTopicConfig("t", "max.message.bytes", "200");
        assertEquals(200, log.config().maxMessageBytes());
        assertEquals(Errors.MESSAGE_TOO_LARGE, append(rm, (short) 1, 1_000, 50).error());
    }

    @Test
    void dynamicBrokerDefaultsReachLogsWithoutTheirOwnOverride() throws Exception {
        ReplicaManager rm = start(Map.of());
        broker.createTopic("t", 1, Map.of());
        broker.createTopic("pinned", 1, Map.of("retention.ms", "7200000"));
        broker.setBrokerDefault("log.retention.ms", "3600000");
        assertEquals(3_600_000L, rm.partition(TP).orElseThrow().log().config().retentionMs());
        assertEquals(7_200_000L, rm.partition(new TopicPartition("pinned", 0)).orElseThrow().log().config()
                .retentionMs(), "a topic override wins over the broker default");
    }

    @Test
    void newPartitionsGoToTheLogDirectoryWithFewestLogs() throws Exception {
        Path second = Files.createDirectories(logDir.resolve("second"));
        Path first = Files.createDirectories(logDir.resolve("first"));
        ReplicaManager rm = start(Map.of(LogConfigs.LOG_DIRS, first + "," + second));
        broker.createTopic("spread", 4, Map.of());
        int inFirst = 0;
        int inSecond = 0;
        for (int p = 0; p < 4; p++) {
            Path dir = rm.partition(new TopicPartition("spread", p)).orElseThrow().log().dir().getParent();
            if (dir.equals(first)) {
                inFirst++;
            } else if (dir.equals(second)) {
                inSecond++;
            }
        }
        assertEquals(2, inFirst);
        assertEquals(2, inSecond);
    }

    @Test
    void aRestartKeepsRecordsAndTheCheckpointedHighWatermark() throws Exception {
        ReplicaManager rm = start(Map.of());
        UUID topicId = broker.createTopic("t", UUID.randomUUID(), 1, Map.of(), List.of(1, 2), List.of(1, 2));
        append(rm, (short) 1, 1_000, 4);
        fetchNow(rm, 2, 4);
        append(rm, (short) 1, 1_000, 3);
        assertEquals(4, rm.partition(TP).orElseThrow().highWatermark());
        broker.close();
        assertTrue(Files.readString(logDir.resolve("replication-offset-checkpoint")).contains("t 0 4"));

        rm = start(Map.of());
        broker.createTopic("t", topicId, 1, Map.of(), List.of(1, 2), List.of(1, 2));
        Partition reopened = rm.partition(TP).orElseThrow();
        assertEquals(7, reopened.logEndOffset());
        assertEquals(4, reopened.highWatermark(), "the follower has not fetched since: the checkpoint holds");
        PartitionRead read = fetchNow(rm, -1, 0);
        assertEquals(4, read.highWatermark());
        assertTrue(read.sizeBytes() > 0);
        assertTrue(Files.notExists(logDir.resolve(".kraft_cleanshutdown")), "the marker is consumed on open");
    }

    @Test
    void aSingleReplicaPartitionLeadsFromItsLogEndAfterARestart() throws Exception {
        ReplicaManager rm = start(Map.of());
        UUID topicId = broker.createTopic("t", 1, Map.of());
        append(rm, (short) -1, 1_000, 6);
        broker.close();
        Files.delete(logDir.resolve("replication-offset-checkpoint"));
        rm = start(Map.of());
        broker.createTopic("t", topicId, 1, Map.of(), List.of(1), List.of(1));
        assertEquals(6, rm.partition(TP).orElseThrow().highWatermark(), "an ISR of one: the log end is committed");
    }

    private static ByteBuffer keyedBatch(String key, int value) {
        return MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(1000L + value, key.getBytes(),
                ("value-" + value).getBytes())).buffer();
    }

    private static int recordsInLog(Log log) throws Exception {
        ByteBuffer all = log.read(log.logStartOffset(), Integer.MAX_VALUE, true).records().readFully();
        int count = 0;
        for (var batch : MemoryRecords.readableRecords(all).batches()) {
            for (var ignored : batch) {
                count++;
            }
        }
        return count;
    }

    private static void awaitCondition(BooleanSupplier condition, String what) {
        Awaitility.await(what).atMost(Duration.ofSeconds(WAIT_S)).pollInterval(Duration.ofMillis(20))
                .until(condition::getAsBoolean);
    }

    @Test
    void retentionDeletesExpiredSegmentsOnItsSchedule() throws Exception {
        ReplicaManager rm = start(Map.of("log.retention.check.interval.ms", "50"));
        broker.createTopic("t", 1, Map.of("segment.bytes", "1024", "retention.ms", "60000"));
        for (int i = 0; i < 40; i++) {
            append(rm, (short) 1, 1_000, 5); // timestamps from 1970: long expired
        }
        Partition partition = rm.partition(TP).orElseThrow();
        // No segment-count precondition: with a 50 ms schedule retention may already have run by now.
        awaitCondition(() -> partition.logStartOffset() > 0, "retention never ran");
        assertTrue(partition.logStartOffset() <= partition.highWatermark());
    }

    @Test
    void compactedTopicsAreCleanedOnTheCleanersSchedule() throws Exception {
        ReplicaManager rm = start(Map.of("log.cleaner.backoff.ms", "50", "log.cleaner.dedupe.buffer.size", "1048576"));
        broker.createTopic("t", 1, Map.of("cleanup.policy", "compact", "segment.bytes", "1024",
                "min.cleanable.dirty.ratio", "0.01"));
        for (int i = 0; i < 200; i++) {
            Map<TopicPartition, PartitionProduceResult> result = rm.appendRecords(1_000, (short) 1, false,
                    Map.of(TP, keyedBatch("key-" + (i % 5), i))).get(WAIT_S, TimeUnit.SECONDS);
            assertEquals(Errors.NONE, result.get(TP).error());
        }
        Log log = rm.partition(TP).orElseThrow().log();
        awaitCondition(() -> {
            try {
                return recordsInLog(log) < 200;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, "the cleaner never compacted the log");
        assertEquals(200, log.logEndOffset(), "compaction keeps offsets");

        // Where the next pass starts is checkpointed, survives a restart, and goes with the log.
        OffsetCheckpointFile checkpoint = new OffsetCheckpointFile(logDir.resolve(LogDirectories.CLEANER_CHECKPOINT));
        awaitCondition(() -> checkpoint.read().getOrDefault(TP, 0L) > 0, "no cleaner checkpoint was written");
        UUID topicId = broker.image().topics().topic("t").id();
        broker.close();
        long firstDirty = checkpoint.read().get(TP);
        start(Map.of("log.cleaner.backoff.ms", "50"));
        broker.createTopic("t", topicId, 1, Map.of("cleanup.policy", "compact", "segment.bytes", "1024"),
                List.of(StandaloneBroker.BROKER_ID), List.of(StandaloneBroker.BROKER_ID));
        assertEquals(firstDirty, checkpoint.read().get(TP));
        broker.deleteTopic(topicId);
        assertFalse(checkpoint.read().containsKey(TP), "a later log of the same name starts dirty");
    }
}
