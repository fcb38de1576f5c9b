package io.kraft.metadata.sim;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.controller.ControllerSettings;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.controller.LeaderBalanceSettings;
import io.kraft.metadata.controller.QuorumController;
import io.kraft.metadata.controller.SnapshotPolicy;
import io.kraft.metadata.fault.FaultHandler;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.MetadataRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One simulated controller process: a real {@link QuorumController} on a deterministic loop and clock, with its
 * images published on a loop of its own and its state in {@link SimStorage}. A crash drops both loops; a restart is a
 * new instance on the same snapshot disk.
 */
final class SimController {
    static final ControllerSettings SETTINGS = new ControllerSettings("sim-cluster", SimBroker.SESSION_TIMEOUT_MS,
            400, false, 1, 1);
    /** Snapshots every few KiB of records, so that restarts and transfers load snapshots. */
    static final SnapshotPolicy SNAPSHOTS = new SnapshotPolicy(1024, 2_000);
    /** Leadership moves back to preferred replicas every few simulated seconds. */
    static final LeaderBalanceSettings LEADER_BALANCE = new LeaderBalanceSettings(true, 3_000, 10);
    static final Map<String, SupportedRange> FEATURES = Map.of("metadata.version", new SupportedRange(1, 3),
            "eligible.leader.replicas.version", new SupportedRange(1, 1));
    /** The cluster is formatted with eligible leader replicas on (KIP-966), as {@code kraft-cli format} does. */
    static final List<MetadataRecord> BOOTSTRAP = List.of(MetadataRecords.of(FeatureLevelRecord.newBuilder()
            .setName("eligible.leader.replicas.version").setLevel(1).build()));
    private static final TopicConfigResolver TOPIC_CONFIGS = new TopicConfigResolver(BrokerLogSettings.from(
            LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));

    final int id;
    final QuorumController controller;
    final SimStorage storage;
    private final SimEventLoop loop;
    private final SimEventLoop publisherLoop;
    /** What the publisher saw go wrong: offsets out of order. */
    final List<String> publishingProblems = new ArrayList<>();
    private MetadataImage lastPublished = MetadataImage.EMPTY;

    private SimController(int id, QuorumController controller, SimStorage storage, SimEventLoop loop,
                          SimEventLoop publisherLoop) {
        this.id = id;
        this.controller = controller;
        this.storage = storage;
        this.loop = loop;
        this.publisherLoop = publisherLoop;
    }

    /** Starts controller {@code id} on its member of the simulated quorum. */
    static SimController start(int id, SimScheduler scheduler, SimRaft raft, FaultHandler faultHandler) {
        SimEventLoop loop = new SimEventLoop("controller-" + id, scheduler, () -> 1);
        SimEventLoop publisherLoop = new SimEventLoop("publisher-" + id, scheduler, () -> 2);
        SimStorage storage = new SimStorage(raft.member(id).disk);
        QuorumController controller = QuorumController.builder(id, SETTINGS)
                .topicConfigs(TOPIC_CONFIGS)
                .supportedFeatures(FEATURES)
                .bootstrapRecords(BOOTSTRAP)
                .leaderBalance(LEADER_BALANCE)
                .randomSeed(scheduler.random().nextLong())
                .time(scheduler)
                .eventLoop(loop)
                .publisherLoop(publisherLoop)
                .storage(storage)
                .snapshotPolicy(SNAPSHOTS)
                .faultHandler(faultHandler)
                .build();
        SimController simulated = new SimController(id, controller, storage, loop, publisherLoop);
        controller.register((delta, image) -> simulated.published(image));
        controller.start(raft.member(id).client);
        raft.start(id, controller);
        return simulated;
    }

    private void published(MetadataImage image) {
        if (image.offset() <= lastPublished.offset()) {
            publishingProblems.add("controller " + id + " published offset " + image.offset() + " after "
                    + lastPublished.offset());
        }
        lastPublished = image;
    }

    MetadataImage lastPublished() {
        return lastPublished;
    }

    /** The process dies: nothing queued on its loops runs. */
    void crash() {
        loop.crash();
        publisherLoop.crash();
    }
}
