package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.fault.RecordingFaultHandler;
import io.kraft.metadata.loop.Time;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.SnapshotId;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code metadata.log.max.snapshot.interval.ms} is honoured on its own: a controller whose log grew by far less than
 * {@code metadata.log.max.record.bytes.between.snapshots} still snapshots once the interval has passed, so a new
 * member of a small cluster is not left replaying the log since the cluster began.
 */
class SnapshotIntervalTest {
    private static final long INTERVAL_MS = TimeUnit.MINUTES.toMillis(10);

    @Test
    void aSnapshotIsTakenOnceTheIntervalHasPassedThoughFewBytesCommitted() {
        long[] nowMs = {0};
        Time clock = new Time() {
            @Override
            public long wallClockMs() {
                return nowMs[0];
            }

            @Override
            public long monotonicMs() {
                return nowMs[0];
            }
        };
        ManualEventLoop loop = new ManualEventLoop();
        CountingStorage storage = new CountingStorage();
        RecordingFaultHandler faults = new RecordingFaultHandler();
        QuorumController controller = QuorumController.builder(1, new ControllerSettings(ControllerTestEnv.CLUSTER_ID,
                        9_000, 1_000, false, 1, 1))
                .topicConfigs(ControllerTestEnv.topicConfigResolver())
                .supportedFeatures(ControllerTestEnv.FEATURES)
                .time(clock)
                .eventLoop(loop)
                .publisherLoop(new ManualEventLoop())
                .storage(storage)
                .snapshotPolicy(new SnapshotPolicy(SnapshotPolicy.DEFAULT_MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS,
                        INTERVAL_MS))
                .faultHandler(faults)
                .build();
        SnapshotRecordingRaft raft = new SnapshotRecordingRaft();
        controller.start(raft);
        controller.handleLeaderChange(new LeaderAndEpoch(OptionalInt.of(2), 1));
        controller.handleCommit(new CommittedBatch(0, 1, List.of(MetadataRecords.of(FeatureLevelRecord.newBuilder()
                .setName("metadata.version").setLevel(1).build()).toByteArray())));
        loop.runAll();
        assertEquals(List.of(), storage.saved, "a few bytes are not worth a snapshot yet");

        // The check runs every minute (at most): none is due before the interval has passed.
        for (long t = 0; t < INTERVAL_MS; t += TimeUnit.SECONDS.toMillis(10)) {
            nowMs[0] = t;
            loop.runTimersDueAt(t);
        }
        assertEquals(List.of(), storage.saved);

        nowMs[0] = INTERVAL_MS;
        loop.runTimersDueAt(nowMs[0]);
        assertEquals(List.of(new SnapshotId(1, 1)), storage.saved);
        assertEquals(List.of(new SnapshotId(1, 1)), raft.reported, "Raft is told, so it can drop the log prefix");
        controller.close();
        assertEquals(List.of(), faults.faults());
    }
}
