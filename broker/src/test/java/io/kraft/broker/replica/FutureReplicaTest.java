package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.RecordBatchBuilder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A future replica copies its source in steps and follows what happens to the source meanwhile. */
class FutureReplicaTest {
    private static final TopicPartition TP = new TopicPartition("t", 0);

    @TempDir
    Path dir;

    private Log source;
    private Log copy;

    @AfterEach
    void close() {
        source.close();
        copy.close();
    }

    private FutureReplica open() {
        source = Log.open(dir.resolve("a/t-0"), LogConfig.defaults());
        copy = Log.open(dir.resolve("b/t-0.future"), LogConfig.defaults());
        return new FutureReplica(TP, dir.resolve("b"), copy);
    }

    private static ByteBuffer batch(int records) {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(4096), CompressionType.NONE, 0);
        for (int i = 0; i < records; i++) {
            builder.append(1_000L, null, ByteBuffer.wrap(("record-" + i).getBytes(StandardCharsets.UTF_8)));
        }
        return builder.build();
    }

    @Test
    void copiesWholeBatchesInStepsUntilCaughtUp() {
        FutureReplica future = open();
        for (int i = 0; i < 10; i++) {
            source.append(batch(5), 3, 1);
        }
        future.copyFrom(source, 200, 1);
        assertEquals(5, copy.logEndOffset(), "a step copies whole batches only (one of about 140 bytes here)");
        assertFalse(future.caughtUp(source));
        while (future.copyFrom(source, 200, 1) > 0) {
            // step by step
        }
        assertTrue(future.caughtUp(source));
        assertEquals(50, copy.logEndOffset());
        assertEquals(source.leaderEpochCache().entries(), copy.leaderEpochCache().entries());
        assertEquals(source.sizeInBytes(), future.copiedBytes());
    }

    @Test
    void followsTheSourcesStartAndTruncation() {
        FutureReplica future = open();
        for (int i = 0; i < 4; i++) {
            source.append(batch(5), 1, 1);
        }
        future.finish(source, 1);
        assertEquals(20, copy.logEndOffset());

        source.truncateTo(10); // a follower's source diverged from its leader
        source.appendAsFollower(leaderBatch(10, 2), 1);
        future.finish(source, 1);
        assertEquals(source.logEndOffset(), copy.logEndOffset());
        assertEquals(source.leaderEpochCache().entries(), copy.leaderEpochCache().entries());

        source.deleteRecordsBefore(12);
        future.copyFrom(source, 1024, 1);
        assertEquals(12, copy.logStartOffset(), "the copy's start follows the source's");

        source.leaderEpochCache().assign(3, source.logEndOffset()); // a leader epoch that has no records yet
        future.finish(source, 1);
        assertEquals(source.leaderEpochCache().entries(), copy.leaderEpochCache().entries());
    }

    /** A leader's batch of 5 records at {@code baseOffset} in {@code epoch}, as a follower receives it. */
    private ByteBuffer leaderBatch(long baseOffset, int epoch) {
        Log leader = Log.open(dir.resolve("leader/t-0"), LogConfig.defaults());
        try {
            leader.truncateFullyAndStartAt(baseOffset);
            leader.append(batch(5), epoch, 1);
            return leader.read(baseOffset, Integer.MAX_VALUE, true).records().readFully();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            leader.close();
        }
    }
}
