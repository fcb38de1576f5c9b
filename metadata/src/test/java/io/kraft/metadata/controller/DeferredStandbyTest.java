package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.fault.RecordingFaultHandler;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.RemoveTopicRecord;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.LeaderReady;
import io.kraft.raft.SnapshotId;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A controller restarted on its snapshot catches up with the log before its standby managers exist (they are built
 * off its loop), has none until they have heard everything committed meanwhile, and one that must serve first builds
 * its own and never takes the late ones.
 */
class DeferredStandbyTest {
    private static final int EPOCH = CatchUpCoalescingTest.EPOCH;
    private static final ControllerSettings SETTINGS = new ControllerSettings(ControllerTestEnv.CLUSTER_ID, 9_000,
            1_000, false, 1, 1);

    private final RecordingFaultHandler faults = new RecordingFaultHandler();
    private final ManualEventLoop loop = new ManualEventLoop();
    /** The standby builds handed to the builder thread, run only when the test says so. */
    private final List<Runnable> builds = new ArrayList<>();
    private QuorumController controller;
    private List<CommittedBatch> log;

    @AfterEach
    void close() {
        controller.close();
        assertEquals(List.of(), faults.faults());
    }

    /** Restarts on a snapshot of the first fifth of the log and applies the next two fifths. */
    private void restartAndCatchUp() {
        log = CatchUpCoalescingTest.leaderLog().subList(0, 500);
        int snapshotBatches = log.size() / 5;
        List<MetadataRecord> snapshotRecords = new ArrayList<>();
        log.subList(0, snapshotBatches).forEach(batch -> snapshotRecords.addAll(CatchUpCoalescingTest.parse(batch)));
        CommittedBatch lastInSnapshot = log.get(snapshotBatches - 1);
        controller = QuorumController.builder(1, SETTINGS)
                .topicConfigs(ControllerTestEnv.topicConfigResolver())
                .supportedFeatures(ControllerTestEnv.FEATURES)
                .eventLoop(loop)
                .publisherLoop(new ManualEventLoop())
                .standbyBuilder(builds::add)
                .storage(new CountingStorage(snapshotRecords, new MetadataProvenance(lastInSnapshot.lastOffset(),
                        EPOCH)))
                .faultHandler(faults)
                .build();
        controller.start(new SnapshotRecordingRaft());
        controller.handleLoadSnapshot(new SnapshotId(lastInSnapshot.lastOffset() + 1, EPOCH));
        controller.handleLeaderChange(new LeaderAndEpoch(OptionalInt.of(2), EPOCH));
        log.subList(snapshotBatches, 3 * snapshotBatches).forEach(controller::handleCommit);
        loop.runAll();
        assertEquals(log.get(3 * snapshotBatches - 1).lastOffset(), controller.image().offset(),
                "caught up without the managers");
        assertNull(controller.standbyManagers(), "no managers before they are built");
        assertEquals(1, builds.size());
    }

    /** The rest of the log, after deleting the first topic the snapshot holds. */
    private void commitTheRest() {
        UUID doomed = controller.image().topics().topic("topic-0").id();
        CommittedBatch last = log.get(log.size() - 1);
        List<CommittedBatch> rest = new ArrayList<>(log.subList(3 * log.size() / 5, log.size()));
        rest.add(new CommittedBatch(last.lastOffset() + 1, EPOCH, List.of(MetadataRecords.of(
                RemoveTopicRecord.newBuilder().setTopicId(Uuids.toProto(doomed)).build()).toByteArray())));
        rest.forEach(controller::handleCommit);
        loop.runAll();
        assertEquals(last.lastOffset() + 1, controller.image().offset());
    }

    @Test
    void theStandbyBuiltOffTheLoopHearsEverythingCommittedWhileItWasBuilt() {
        restartAndCatchUp();
        commitTheRest();
        assertNull(controller.standbyManagers());
        assertEquals(1, builds.size(), "one build, however many batches follow");

        builds.get(0).run();
        loop.runAll();
        ControlManagers standby = controller.standbyManagers();
        assertNotNull(standby);
        assertSame(controller.image(), standby.metadata().committedImage());
        ControlManagers fresh = ControlManagers.fromImage(controller.image(), SETTINGS,
                ControllerTestEnv.topicConfigResolver(), ControllerTestEnv.FEATURES, new Random(1));
        assertEquals(fresh.replication().indexes(), standby.replication().indexes());
        assertEquals(fresh.cluster().indexes(), standby.cluster().indexes());
    }

    @Test
    void aMemberThatMustServeFirstBuildsItsOwnManagersAndDropsTheLateOnes() {
        restartAndCatchUp();
        controller.handleLeaderChange(new LeaderAndEpoch(OptionalInt.of(1), EPOCH + 1));
        controller.handleLeaderReady(new LeaderReady(EPOCH + 1, controller.image().offset() + 1));
        loop.runAll();
        ControlManagers serving = controller.standbyManagers();
        assertNotNull(serving, "built on the loop to serve");
        assertSame(controller.image(), serving.metadata().committedImage());

        builds.get(0).run();
        loop.runAll();
        assertSame(serving, controller.standbyManagers(), "the late build is dropped");
    }
}
