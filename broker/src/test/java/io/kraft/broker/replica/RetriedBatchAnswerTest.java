package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leader's answer to an idempotent producer's retry of a batch written before the five it remembers:
 * DUPLICATE_SEQUENCE_NUMBER (the Java producer completes the batch), for acks=all only once those records are
 * replicated to the ISR, as any acks=all answer.
 */
class RetriedBatchAnswerTest {
    private static final int FOLLOWER = 2;
    private static final long PRODUCER = 9L;
    private static final int BATCH = 4;

    @TempDir
    Path dir;

    private static ByteBuffer idempotent(int index) {
        SimpleRecord[] records = new SimpleRecord[BATCH];
        for (int i = 0; i < BATCH; i++) {
            records[i] = new SimpleRecord(1_000L, ("k" + i).getBytes(), ("v" + (index * BATCH + i)).getBytes());
        }
        return MemoryRecords.withIdempotentRecords(Compression.NONE, PRODUCER, (short) 0, index * BATCH, records)
                .buffer();
    }

    private static CompletableFuture<Map<TopicPartition, PartitionProduceResult>> produce(
            ReplicatedLeaderHarness harness, short acks, int index) {
        return harness.replicaManager.appendRecords(30_000, acks, false,
                Map.of(ReplicatedLeaderHarness.TP, idempotent(index)));
    }

    @Test
    void aRetryOlderThanTheCachedBatchesIsADuplicateOnceReplicated() throws Exception {
        try (ReplicatedLeaderHarness harness = new ReplicatedLeaderHarness(dir, List.of(1, FOLLOWER))) {
            for (int i = 0; i < 7; i++) {
                assertEquals(Errors.NONE, produce(harness, (short) 1, i).get(15, TimeUnit.SECONDS)
                        .get(ReplicatedLeaderHarness.TP).error());
            }
            // Batch 0 ends at offset 3; the oldest cached batch (2) starts at offset 8.
            harness.followerFetch(FOLLOWER, 1, 4, 0);
            CompletableFuture<Map<TopicPartition, PartitionProduceResult>> retry = produce(harness, (short) -1, 0);
            assertFalse(retry.isDone(), "answered only once the records before the cached batches are replicated");
            harness.followerFetch(FOLLOWER, 1, 8, 0);
            PartitionProduceResult answer = retry.get(15, TimeUnit.SECONDS).get(ReplicatedLeaderHarness.TP);
            assertEquals(Errors.DUPLICATE_SEQUENCE_NUMBER, answer.error(), answer.errorMessage());
            assertEquals(28, harness.partition().logEndOffset(), "the retry wrote nothing");
            PartitionProduceResult acksOne = produce(harness, (short) 1, 1).get(15, TimeUnit.SECONDS)
                    .get(ReplicatedLeaderHarness.TP);
            assertEquals(Errors.DUPLICATE_SEQUENCE_NUMBER, acksOne.error(), "acks=1 answers at once");
        }
    }
}
