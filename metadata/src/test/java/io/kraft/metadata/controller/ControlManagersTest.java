package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.LocalReplicaChanges;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ControlManagersTest {
    private final ControllerTestEnv env = new ControllerTestEnv();

    @Test
    void killedBrokerLosesItsLeadershipsOnceTheConnectionLossGraceRunsOut() {
        long epoch1 = env.startBroker(1, null);
        long epoch2 = env.startBroker(2, null);
        UUID id = env.commit(env.managers.createTopic(new CreateTopicRequest("t", -1, -1,
                Map.of(0, List.of(1, 2), 1, List.of(2, 1)), Map.of()))).response().topicId();
        env.nowMs += 500;
        env.commit(env.managers.heartbeat(new BrokerHeartbeatRequest(2, epoch2, env.nextOffset, false, false), env.nowMs));

        env.managers.connectionClosed(1, env.nowMs);
        long graceMs = env.settings.connectionLossGraceMs();
        assertEquals(env.nowMs + graceMs, env.managers.nextFencingDeadlineMs(env.nowMs));
        assertTrue(env.managers.fenceStaleBrokers(env.nowMs + graceMs - 1).records().isEmpty());

        MetadataDelta brokerView = new MetadataDelta(env.image);
        ControllerResult<List<Integer>> fenced = env.managers.fenceStaleBrokers(env.nowMs + graceMs);
        long offset = env.nextOffset;
        for (MetadataRecord record : fenced.records()) {
            brokerView.replay(record, offset++, 1);
        }
        env.commit(fenced);
        assertEquals(List.of(1), fenced.response());
        assertTrue(env.nowMs + graceMs - (env.nowMs - 500) < env.settings.sessionTimeoutMs(),
                "fenced well before the session timeout");
        assertEquals(new PartitionRegistration(List.of(1, 2), List.of(2), 2, 1, 1), env.image.topics().partition(id, 0));
        assertEquals(List.of(2), env.image.topics().partition(id, 1).isr());

        // What broker 2's replica manager sees: it now leads partition 0, and partition 1 only lost a follower.
        LocalReplicaChanges changes = brokerView.topicsDelta().localChanges(2);
        assertEquals(Set.of(new TopicIdPartition(id, 0)), changes.leaders().keySet());
        assertTrue(changes.followers().isEmpty());

        assertEquals(Errors.STALE_BROKER_EPOCH, env.managers.heartbeat(
                new BrokerHeartbeatRequest(1, epoch1 - 1, env.nextOffset, false, false), env.nowMs).error().error());
    }

    @Test
    void rebuildingFromTheCommittedImageDropsInFlightRecords() {
        env.startBroker(1, null);
        env.commit(env.managers.createTopic(CreateTopicRequest.of("committed", 2, 1)));

        // The active controller replays its own records before they commit...
        ControllerResult<CreateTopicResult> inFlight = env.managers.createTopic(CreateTopicRequest.of("in-flight", 1, 1));
        env.managers.replayBatch(inFlight.records(), env.nextOffset, 1);
        assertEquals(Errors.TOPIC_ALREADY_EXISTS,
                env.managers.createTopic(CreateTopicRequest.of("in-flight", 1, 1)).error().error(),
                "the next request sees in-flight records");

        // ...and a controller that lost leadership starts over from what committed.
        ControlManagers rebuilt = ControlManagers.fromImage(env.image, env.settings,
                ControllerTestEnv.topicConfigResolver(), ControllerTestEnv.FEATURES, new Random(5));
        assertEquals(env.image, rebuilt.image(env.image.provenance()));
        assertFalse(rebuilt.replication().topicExists("in-flight"));
        assertTrue(rebuilt.createTopic(CreateTopicRequest.of("in-flight", 1, 1)).isSuccess());
        assertEquals(Errors.TOPIC_ALREADY_EXISTS, rebuilt.createTopic(CreateTopicRequest.of("committed", 1, 1))
                .error().error());
    }

    @Test
    void brokersRegisteredBeforeARebuildUnfenceOnceCaughtUpToTheImage() {
        long epoch = env.commit(env.managers.registerBroker(ControllerTestEnv.registration(1, null), env.nowMs)).response();
        env.commit(env.managers.updateFeature("metadata.version", 1));
        ControlManagers rebuilt = ControlManagers.fromImage(env.image, env.settings,
                ControllerTestEnv.topicConfigResolver(), ControllerTestEnv.FEATURES, new Random(5));
        ControllerResult<BrokerHeartbeatReply> behind = rebuilt.heartbeat(
                new BrokerHeartbeatRequest(1, epoch, env.image.offset() - 1, false, false), env.nowMs);
        assertFalse(behind.response().isCaughtUp());
        ControllerResult<BrokerHeartbeatReply> caughtUp = rebuilt.heartbeat(
                new BrokerHeartbeatRequest(1, epoch, env.image.offset(), false, false), env.nowMs);
        assertTrue(caughtUp.response().isCaughtUp());
        assertFalse(caughtUp.response().isFenced());
    }
}
