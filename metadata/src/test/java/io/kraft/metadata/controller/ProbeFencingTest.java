package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.fault.RecordingFaultHandler;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.LeaderReady;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A broker whose endpoints refuse connections is fenced in the event that hears the refusal, without waiting for the
 * fencing timer's turn; and a newly elected controller probes the brokers before its epoch is ready, so one that died
 * with the previous controller is fenced as it becomes active. The loop runs only when told and no timer ever fires,
 * so each fence written here was written by the refusal itself.
 */
class ProbeFencingTest {
    private static final int NODE_ID = 1;

    private final ManualEventLoop loop = new ManualEventLoop();
    private final RecordingFaultHandler faults = new RecordingFaultHandler();
    /** Each probe asked for, by broker id: the callback to run when its endpoints refuse. */
    private final Map<Integer, List<Runnable>> probes = new TreeMap<>();
    private final SnapshotRecordingRaft raft = new SnapshotRecordingRaft();
    private QuorumController controller;
    private long nextOffset;

    @BeforeEach
    void startAsFollowerOfTwoBrokers() {
        controller = QuorumController.builder(NODE_ID, new ControllerSettings(ControllerTestEnv.CLUSTER_ID,
                        9_000, 1_000, false, 1, 1))
                .topicConfigs(ControllerTestEnv.topicConfigResolver())
                .supportedFeatures(ControllerTestEnv.FEATURES)
                .eventLoop(loop)
                .publisherLoop(new ManualEventLoop())
                .storage(new CountingStorage())
                .brokerProbe((brokerId, endpoints, onRefused) ->
                        probes.computeIfAbsent(brokerId, id -> new ArrayList<>()).add(onRefused))
                .faultHandler(faults)
                .build();
        controller.start(raft);
        controller.handleLeaderChange(new LeaderAndEpoch(OptionalInt.of(2), 1));
        commit(List.of(MetadataRecords.of(FeatureLevelRecord.newBuilder().setName("metadata.version").setLevel(1)
                .build())));
        ControllerTestEnv brokers = new ControllerTestEnv();
        brokers.batchListener = (records, lastOffset) -> commit(records);
        brokers.startBroker(2, null);
        brokers.startBroker(3, null);
        loop.runAll();
    }

    @AfterEach
    void close() {
        controller.close();
        assertEquals(List.of(), faults.faults());
    }

    @Test
    void aBrokerThatDiedWithThePreviousControllerIsFencedAsTheNewOneBecomesActive() {
        controller.handleLeaderChange(new LeaderAndEpoch(OptionalInt.of(NODE_ID), 2));
        loop.runAll();
        assertEquals(List.of(2, 3), List.copyOf(probes.keySet()), "probed at the election, before the epoch is ready");
        probes.get(3).get(0).run();
        loop.runAll();
        assertEquals(List.of(), fencedBrokers(), "nothing is written before the epoch is ready");

        controller.handleLeaderReady(new LeaderReady(2, nextOffset));
        loop.runAll();
        assertEquals(List.of(3), fencedBrokers());
    }

    @Test
    void anActiveControllerFencesABrokerAsSoonAsItsEndpointsRefuse() {
        controller.handleLeaderChange(new LeaderAndEpoch(OptionalInt.of(NODE_ID), 2));
        controller.handleLeaderReady(new LeaderReady(2, nextOffset));
        loop.runAll();
        probes.clear();

        controller.connectionClosed(2);
        loop.runAll();
        assertEquals(List.of(), fencedBrokers(), "a closed connection alone waits for its grace");
        probes.get(2).get(0).run();
        loop.runAll();
        assertEquals(List.of(2), fencedBrokers());
    }

    @Test
    void aRefusalHeardForAnEpochThisMemberNoLongerAwaitsIsDropped() {
        controller.handleLeaderChange(new LeaderAndEpoch(OptionalInt.of(NODE_ID), 2));
        loop.runAll();
        controller.handleLeaderChange(new LeaderAndEpoch(OptionalInt.of(3), 3));
        controller.handleLeaderChange(new LeaderAndEpoch(OptionalInt.of(NODE_ID), 4));
        loop.runAll();
        probes.get(3).get(0).run(); // the probe of epoch 2
        controller.handleLeaderReady(new LeaderReady(4, nextOffset));
        loop.runAll();
        assertEquals(List.of(), fencedBrokers(), "broker 3 waits for the probe of epoch 4 or its grace");

        probes.get(3).get(1).run();
        loop.runAll();
        assertEquals(List.of(3), fencedBrokers());
    }

    private void commit(List<MetadataRecord> records) {
        controller.handleCommit(new CommittedBatch(nextOffset, 1,
                records.stream().map(MetadataRecord::toByteArray).toList()));
        nextOffset += records.size();
    }

    private List<Integer> fencedBrokers() {
        return raft.appended.stream().filter(MetadataRecord::hasFenceBroker)
                .map(record -> record.getFenceBroker().getBrokerId()).toList();
    }
}
