package io.kraft.broker.fetch.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.StandaloneBroker;
import io.kraft.broker.protocol.message.FetchResponse;
import io.kraft.broker.replica.Partition;
import io.kraft.broker.replica.ReplicationConfig;
import io.kraft.storage.log.TopicPartition;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A follower given fetched records that do not continue its log: records for a fetch offset it no longer has (it
 * truncated since), a gap, a leader epoch going back. Each is refused whole; the fetcher truncates to its high
 * watermark and fetches again, or backs off when there is nothing to truncate, and never appends the records. A
 * diverging epoch that truncates nothing backs off too.
 */
class FollowerAppendRecoveryTest {
    private static final TopicPartition TP = new TopicPartition("t", 0);
    private static final int LEADER = 2;

    @TempDir
    Path logDir;

    private StandaloneBroker broker;
    private Partition partition;
    private ReplicaFetcherThread fetcher;
    private int epoch;

    @BeforeEach
    void follow() throws Exception {
        broker = new StandaloneBroker(logDir, Map.of());
        UUID topicId = broker.createTopic("t", UUID.randomUUID(), 1, Map.of(), List.of(1, LEADER), List.of(1, LEADER));
        broker.moveLeader(topicId, 0, LEADER);
        partition = broker.replicaManager().partition(TP).orElseThrow();
        epoch = partition.leaderEpoch();
        fetcher = new ReplicaFetcherThread("test-fetcher", LEADER, 1, ReplicationConfig.defaults(),
                id -> Optional.empty(), () -> 1L, System::currentTimeMillis);
        // Offsets 0-4 of epoch 0 and 5-6 of epoch 1; the leader's high watermark is 5.
        assertTrue(apply(0, answer(5, concat(batch(0, 5, 0), batch(5, 2, 1)))));
        assertEquals(7, partition.logEndOffset());
        assertEquals(5, partition.highWatermark());
    }

    @AfterEach
    void close() {
        broker.close();
    }

    private boolean apply(long fetchOffset, FetchResponse.PartitionData answer) {
        return fetcher.applyPartition(new FollowerPartition(partition, epoch, 0L), fetchOffset, answer);
    }

    private static ByteBuffer batch(long baseOffset, int records, int leaderEpoch) {
        SimpleRecord[] simple = new SimpleRecord[records];
        for (int i = 0; i < records; i++) {
            simple[i] = new SimpleRecord(1_000L, ("v" + (baseOffset + i)).getBytes());
        }
        return MemoryRecords.withRecords(baseOffset, Compression.NONE, leaderEpoch, simple).buffer();
    }

    private static ByteBuffer concat(ByteBuffer first, ByteBuffer second) {
        ByteBuffer both = ByteBuffer.allocate(first.remaining() + second.remaining());
        both.put(first.duplicate()).put(second.duplicate()).flip();
        return both;
    }

    private static FetchResponse.PartitionData answer(long highWatermark, ByteBuffer records) {
        return new FetchResponse.PartitionData().setPartitionIndex(0).setHighWatermark(highWatermark)
                .setLogStartOffset(0).setRecords(records);
    }

    @Test
    void recordsForAFetchOffsetTheLogNoLongerEndsAtAreDropped() {
        partition.truncateTo(5, epoch);
        assertTrue(apply(7, answer(7, batch(7, 3, 1))), "fetch again at once");
        assertEquals(5, partition.logEndOffset(), "records past the truncation point are not appended");
    }

    @Test
    void aGapIsRefusedAndTheFollowerTruncatesToItsHighWatermark() {
        assertTrue(apply(7, answer(5, batch(9, 2, 1))), "fetch again from the high watermark");
        assertEquals(5, partition.logEndOffset());
        assertEquals(0, partition.log().leaderEpochCache().latestEpoch(), "epoch 1 began at 5: gone with the tail");
        assertTrue(apply(5, answer(7, batch(5, 2, 1))));
        assertEquals(7, partition.logEndOffset(), "the records that continue the log are taken");
    }

    @Test
    void aLeaderEpochGoingBackIsRefusedAndAtTheHighWatermarkTheFetcherBacksOff() {
        assertTrue(apply(7, answer(5, batch(7, 2, 0))), "epoch 0 after epoch 1: refused, truncated to 5");
        assertEquals(5, partition.logEndOffset());
        assertEquals(0, partition.log().leaderEpochCache().latestEpoch(), "epoch 1 began at 5: gone with the tail");
        assertTrue(apply(5, answer(6, batch(5, 1, 1))));
        assertEquals(6, partition.highWatermark());
        assertFalse(apply(6, answer(6, batch(6, 1, 0))), "epoch 0 after 1 again, with nothing above the watermark");
        assertEquals(6, partition.logEndOffset(), "nothing of a refused append is written");
    }

    @Test
    void aDivergingAnswerThatTruncatesNothingBacksOffInsteadOfFetchingAgainAtOnce() {
        // The leader says epoch 1 ends at 7, where this log ends too: the same answer would come back at once.
        FetchResponse.PartitionData diverging = answer(5, null);
        diverging.divergingEpoch().setEpoch(1).setEndOffset(7);
        assertFalse(apply(7, diverging), "back off rather than spin on the same answer");
        assertEquals(7, partition.logEndOffset());
        // One that does cut the log is followed by a fetch at once.
        diverging.divergingEpoch().setEpoch(0).setEndOffset(5);
        assertTrue(apply(7, diverging));
        assertEquals(5, partition.logEndOffset());
    }
}
