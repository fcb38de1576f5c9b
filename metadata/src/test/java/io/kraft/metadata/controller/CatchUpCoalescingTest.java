package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.fault.RecordingFaultHandler;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.TopicRecord;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.SnapshotId;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A controller far behind the log (restarted on its snapshot, the leader's batches arriving faster than its loop
 * applies them) replays them as a bounded number of deltas, not one per batch, and ends with the image of a member
 * that applied them one at a time.
 */
class CatchUpCoalescingTest {
    private static final int TOPICS = 4_000;
    private static final int PARTITIONS = 10;
    static final int EPOCH = 3;

    private final RecordingFaultHandler faults = new RecordingFaultHandler();
    private final List<QuorumController> controllers = new ArrayList<>();

    @AfterEach
    void closeAll() {
        controllers.forEach(QuorumController::close);
        assertEquals(List.of(), faults.faults());
    }

    @Test
    void aRestartedControllerReplaysTheLogAfterItsSnapshotAsOneDeltaAndMatchesTheLeader() {
        List<CommittedBatch> log = leaderLog();
        int snapshotBatches = log.size() / 2;

        // The leader's view: every batch applied as it committed, one event each.
        ManualEventLoop inStepLoop = new ManualEventLoop();
        CountingStorage inStepStorage = new CountingStorage();
        QuorumController inStep = controller(inStepLoop, inStepStorage);
        inStep.handleLeaderChange(new LeaderAndEpoch(OptionalInt.of(2), EPOCH));
        for (CommittedBatch batch : log) {
            inStep.handleCommit(batch);
            inStepLoop.runAll();
        }
        assertEquals(log.size(), inStepStorage.applies);

        // The restarted one: its snapshot covers the first half, the rest commits while its loop is still busy.
        List<MetadataRecord> snapshotRecords = new ArrayList<>();
        log.subList(0, snapshotBatches).forEach(batch -> snapshotRecords.addAll(parse(batch)));
        CommittedBatch lastInSnapshot = log.get(snapshotBatches - 1);
        ManualEventLoop restartLoop = new ManualEventLoop();
        CountingStorage restartStorage = new CountingStorage(snapshotRecords,
                new MetadataProvenance(lastInSnapshot.lastOffset(), EPOCH));
        QuorumController restarted = controller(restartLoop, restartStorage);
        restarted.handleLoadSnapshot(new SnapshotId(lastInSnapshot.lastOffset() + 1, EPOCH));
        restarted.handleLeaderChange(new LeaderAndEpoch(OptionalInt.of(2), EPOCH));
        for (CommittedBatch batch : log.subList(snapshotBatches, log.size())) {
            restarted.handleCommit(batch);
        }
        restartLoop.runAll();

        assertEquals(1, restartStorage.applies, "the batches after the snapshot should be one delta");
        assertEquals(inStep.image().offset(), restarted.image().offset());
        assertEquals(inStep.image().toRecords(), restarted.image().toRecords());
        assertEquals(TOPICS, restarted.image().topics().size());
    }

    @Test
    void aLeaderChangeBetweenBatchesSplitsTheRun() {
        List<CommittedBatch> log = leaderLog().subList(0, 100);
        ManualEventLoop loop = new ManualEventLoop();
        CountingStorage storage = new CountingStorage();
        QuorumController controller = controller(loop, storage);
        controller.handleLeaderChange(new LeaderAndEpoch(OptionalInt.of(2), EPOCH));
        log.subList(0, 50).forEach(controller::handleCommit);
        controller.handleLeaderChange(new LeaderAndEpoch(OptionalInt.of(2), EPOCH));
        log.subList(50, 100).forEach(controller::handleCommit);
        loop.runAll();
        assertEquals(2, storage.applies);
        assertEquals(log.get(99).lastOffset(), controller.image().offset());
        assertTrue(controller.image().topics().size() > 0);
    }

    private QuorumController controller(ManualEventLoop loop, CountingStorage storage) {
        QuorumController controller = QuorumController.builder(1, new ControllerSettings(ControllerTestEnv.CLUSTER_ID,
                        9_000, 1_000, false, 1, 1))
                .topicConfigs(ControllerTestEnv.topicConfigResolver())
                .supportedFeatures(ControllerTestEnv.FEATURES)
                .eventLoop(loop)
                .publisherLoop(new ManualEventLoop())
                .storage(storage)
                .faultHandler(faults)
                .build();
        controllers.add(controller);
        return controller;
    }

    /** The log a leader wrote: the metadata version, then one batch per topic creation. */
    static List<CommittedBatch> leaderLog() {
        Random random = new Random(7);
        List<CommittedBatch> log = new ArrayList<>();
        log.add(new CommittedBatch(0, EPOCH, List.of(MetadataRecords.of(FeatureLevelRecord.newBuilder()
                .setName("metadata.version").setLevel(1).build()).toByteArray())));
        long offset = 1;
        for (int t = 0; t < TOPICS; t++) {
            UUID id = new UUID(random.nextLong() | 1, random.nextLong());
            List<byte[]> records = new ArrayList<>();
            records.add(MetadataRecords.of(TopicRecord.newBuilder().setName("topic-" + t)
                    .setTopicId(Uuids.toProto(id)).build()).toByteArray());
            for (int p = 0; p < PARTITIONS; p++) {
                records.add(MetadataRecords.of(PartitionRecord.newBuilder().setTopicId(Uuids.toProto(id))
                        .setPartitionId(p).addReplicas(0).addReplicas(1).addReplicas(2).addIsr(0).addIsr(1)
                        .addIsr(2).setLeader(p % 3).build()).toByteArray());
            }
            log.add(new CommittedBatch(offset, EPOCH, records));
            offset += records.size();
        }
        return log;
    }

    static List<MetadataRecord> parse(CommittedBatch batch) {
        List<MetadataRecord> records = new ArrayList<>();
        for (byte[] raw : batch.records()) {
            try {
                records.add(MetadataRecord.parseFrom(raw));
            } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                throw new AssertionError(e);
            }
        }
        return records;
    }
}
