package io.kraft.metadata.controller;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.fault.RecordingFaultHandler;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.loader.MetadataStorage;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.SnapshotId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** An error on the controller's event loop stops the controller through its fault handler: never a zombie. */
class QuorumControllerFaultTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void anErrorWhileApplyingACommittedBatchIsAFault() {
        RecordingFaultHandler faults = new RecordingFaultHandler();
        QuorumController controller = QuorumController.builder(1, new ControllerSettings(ControllerTestEnv.CLUSTER_ID,
                        9_000, 1_000, false, 1, 1))
                .topicConfigs(ControllerTestEnv.topicConfigResolver())
                .supportedFeatures(ControllerTestEnv.FEATURES)
                .storage(new FailingStorage())
                .faultHandler(faults)
                .build();
        controller.start(new SnapshotRecordingRaft());
        List<byte[]> records = List.of(MetadataRecords.of(FeatureLevelRecord.newBuilder()
                .setName("metadata.version").setLevel(1).build()).toByteArray());
        try {
            controller.handleCommit(new CommittedBatch(0, 1, records));
            await().atMost(WAIT).until(() -> !faults.faults().isEmpty());
            assertTrue(faults.faults().get(0).startsWith("Controller 1 failed in event commit 0: "
                    + "java.lang.AssertionError: disk controller on fire"), faults.faults().get(0));
            // Stopped: later events do nothing, so the fault is reported once (close runs what is queued first).
            controller.handleCommit(new CommittedBatch(1, 1, records));
            controller.close();
            assertEquals(1, faults.faults().size());
        } finally {
            controller.close();
        }
    }

    /** Storage whose every write fails with an Error, which the loader does not expect and must not swallow. */
    private static final class FailingStorage implements MetadataStorage {
        @Override
        public void apply(MetadataDelta delta) {
            throw new AssertionError("disk controller on fire");
        }

        @Override
        public boolean containsSnapshot(SnapshotId id) {
            return false;
        }

        @Override
        public CompletableFuture<Void> saveSnapshot(SnapshotId id) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public LoadedSnapshot loadSnapshot(SnapshotId id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }
}
