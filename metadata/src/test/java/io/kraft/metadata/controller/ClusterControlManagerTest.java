package io.kraft.metadata.controller;

import static io.kraft.metadata.controller.ControllerTestEnv.registration;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ClusterControlManagerTest {
    private final ControllerTestEnv env = new ControllerTestEnv();
    private final ClusterControlManager cluster = env.managers.cluster();

    private ControllerResult<BrokerHeartbeatReply> heartbeat(int brokerId, long epoch, boolean wantFence,
                                                             boolean wantShutDown) {
        return env.commit(env.managers.heartbeat(
                new BrokerHeartbeatRequest(brokerId, epoch, env.nextOffset, wantFence, wantShutDown), env.nowMs));
    }

    @Test
    void registrationStartsFencedAndCatchingUpUnfences() {
        long epoch = env.commit(cluster.registerBroker(registration(1, "r1"), env.nowMs)).response();
        BrokerRegistration registered = env.image.cluster().broker(1);
        assertTrue(registered.fenced());
        assertEquals(Optional.of("r1"), registered.rack());
        assertEquals(epoch, registered.epoch());

        long registrationOffset = env.nextOffset - 1;
        ControllerResult<BrokerHeartbeatReply> behind = env.commit(env.managers.heartbeat(
                new BrokerHeartbeatRequest(1, epoch, registrationOffset - 1, false, false), env.nowMs));
        assertEquals(new BrokerHeartbeatReply(false, true, false), behind.response());
        assertTrue(behind.records().isEmpty());

        ControllerResult<BrokerHeartbeatReply> caughtUp = env.commit(env.managers.heartbeat(
                new BrokerHeartbeatRequest(1, epoch, registrationOffset, false, false), env.nowMs));
        assertEquals(new BrokerHeartbeatReply(true, false, false), caughtUp.response());
        assertFalse(env.image.cluster().broker(1).fenced());
        assertTrue(cluster.isUsable(1));
    }

    @Test
    void newIncarnationGetsAHigherEpochAndRetriesKeepTheirs() {
        long first = env.startBroker(1, null);
        ControllerResult<Long> retry = cluster.registerBroker(registration(1, null), env.nowMs);
        assertEquals(first, retry.response());
        assertTrue(retry.records().isEmpty());

        env.commit(env.managers.fenceStaleBrokers(env.nowMs + env.settings.sessionTimeoutMs()));
        BrokerRegistrationRequest restarted = new BrokerRegistrationRequest(ControllerTestEnv.CLUSTER_ID, 1,
                UUID.randomUUID(), List.of(), Optional.empty());
        long second = env.commit(cluster.registerBroker(restarted, env.nowMs)).response();
        assertTrue(second > first);
        assertTrue(env.image.cluster().broker(1).fenced());
    }

    @Test
    void rejectsWrongClusterDuplicateIncarnationUnknownBrokerAndStaleEpoch() {
        long epoch = env.startBroker(1, null);
        ControllerResult<Long> wrongCluster = cluster.registerBroker(new BrokerRegistrationRequest("other", 2,
                UUID.randomUUID(), List.of(), Optional.empty()), env.nowMs);
        assertEquals(Errors.INCONSISTENT_CLUSTER_ID, wrongCluster.error().error());
        assertTrue(wrongCluster.records().isEmpty());

        ControllerResult<Long> duplicate = cluster.registerBroker(new BrokerRegistrationRequest(
                ControllerTestEnv.CLUSTER_ID, 1, UUID.randomUUID(), List.of(), Optional.empty()), env.nowMs + 1);
        assertEquals(Errors.DUPLICATE_BROKER_REGISTRATION, duplicate.error().error());

        ControllerResult<BrokerHeartbeatReply> unknown = env.managers.heartbeat(
                new BrokerHeartbeatRequest(7, 1, 0, false, false), env.nowMs);
        assertEquals(Errors.BROKER_ID_NOT_REGISTERED, unknown.error().error());
        ControllerResult<BrokerHeartbeatReply> stale = env.managers.heartbeat(
                new BrokerHeartbeatRequest(1, epoch - 1, 0, false, false), env.nowMs);
        assertEquals(Errors.STALE_BROKER_EPOCH, stale.error().error());
        assertTrue(stale.records().isEmpty());
        assertEquals(Errors.INVALID_REQUEST, cluster.registerBroker(registration(-3, null), env.nowMs).error().error());
    }

    @Test
    void silentBrokerIsFencedAfterTheSessionTimeout() {
        long epoch = env.startBroker(1, null);
        long timeoutMs = env.settings.sessionTimeoutMs();
        assertEquals(env.nowMs + timeoutMs, cluster.nextFencingDeadlineMs(env.nowMs));
        assertTrue(cluster.fenceStaleBrokers(env.nowMs + timeoutMs - 1).records().isEmpty());

        env.nowMs += timeoutMs / 2;
        heartbeat(1, epoch, false, false);
        assertTrue(cluster.fenceStaleBrokers(env.nowMs + timeoutMs - 1).records().isEmpty(), "heartbeat renews");

        ControllerResult<List<Integer>> fenced = env.commit(cluster.fenceStaleBrokers(env.nowMs + timeoutMs));
        assertEquals(List.of(1), fenced.response());
        assertTrue(env.image.cluster().broker(1).fenced());
        assertEquals(Long.MAX_VALUE, cluster.nextFencingDeadlineMs(env.nowMs), "fenced brokers have no deadline");
    }

    @Test
    void closedConnectionFencesAfterTheGraceUnlessTheBrokerComesBack() {
        long epoch1 = env.startBroker(1, null);
        env.startBroker(2, null);
        long graceMs = env.settings.connectionLossGraceMs();
        cluster.connectionClosed(1, env.nowMs);
        cluster.connectionClosed(2, env.nowMs);
        env.nowMs += graceMs / 2;
        heartbeat(1, epoch1, false, false);

        assertTrue(cluster.fenceStaleBrokers(env.nowMs + graceMs / 2 - 1).records().isEmpty());
        ControllerResult<List<Integer>> fenced = env.commit(cluster.fenceStaleBrokers(env.nowMs + graceMs / 2));
        assertEquals(List.of(2), fenced.response(), "broker 2 did not come back within the grace time");
        assertFalse(env.image.cluster().broker(1).fenced());
    }

    @Test
    void aBrokerWhoseEndpointsRefuseIsFencedWithoutTheGraceUnlessItWasHeardFrom() {
        long epoch1 = env.startBroker(1, null);
        env.startBroker(2, null);
        long epoch3 = env.startBroker(3, null);
        env.nowMs += 500;
        cluster.resetSessions(env.nowMs); // a takeover: broker 2 died with the previous controller
        env.nowMs += 100;
        heartbeat(1, epoch1, false, false);
        assertFalse(cluster.connectionRefused(1, env.nowMs), "heard from since the takeover: left to its session");
        assertTrue(cluster.connectionRefused(2, env.nowMs));
        assertEquals(env.nowMs, cluster.nextFencingDeadlineMs(env.nowMs));
        ControllerResult<List<Integer>> fenced = env.commit(cluster.fenceStaleBrokers(env.nowMs));
        assertEquals(List.of(2), fenced.response(), "broker 2 is fenced at once; broker 3 still has its grace");
        assertFalse(cluster.connectionRefused(2, env.nowMs), "already fenced");

        // A silent partition: no closed connection, and the broker was heard from, so a refusal alone changes nothing.
        heartbeat(3, epoch3, false, false);
        assertFalse(cluster.connectionRefused(3, env.nowMs));
        cluster.connectionClosed(3, env.nowMs);
        assertTrue(cluster.connectionRefused(3, env.nowMs), "its heartbeat stream ended and nothing listens");
        assertEquals(List.of(3), env.commit(cluster.fenceStaleBrokers(env.nowMs)).response());
    }

    @Test
    void aControllerTakingOverFencesTheBrokersItDoesNotHearFromWithinTheTakeoverGrace() {
        long epoch1 = env.startBroker(1, null);
        env.startBroker(2, null);
        long graceMs = env.settings.takeoverGraceMs();
        assertTrue(graceMs < env.settings.sessionTimeoutMs(), "shorter than a session with these settings");
        env.nowMs += 500;
        cluster.resetSessions(env.nowMs); // this controller becomes active; broker 2 died with the previous one
        assertEquals(env.nowMs + graceMs, cluster.nextFencingDeadlineMs(env.nowMs));
        env.nowMs += graceMs / 2;
        heartbeat(1, epoch1, false, false);

        assertTrue(cluster.fenceStaleBrokers(env.nowMs + graceMs / 2 - 1).records().isEmpty());
        ControllerResult<List<Integer>> fenced = env.commit(cluster.fenceStaleBrokers(env.nowMs + graceMs / 2));
        assertEquals(List.of(2), fenced.response(), "broker 2 never reached the new controller");
        assertFalse(env.image.cluster().broker(1).fenced(), "broker 1 heartbeated in time");
    }

    @Test
    void brokerCanAskToBeFencedAndStayFenced() {
        long epoch = env.startBroker(1, null);
        ControllerResult<BrokerHeartbeatReply> fence = heartbeat(1, epoch, true, false);
        assertTrue(fence.response().isFenced());
        assertTrue(env.image.cluster().broker(1).fenced());
        ControllerResult<BrokerHeartbeatReply> stay = heartbeat(1, epoch, true, false);
        assertTrue(stay.records().isEmpty());
        assertTrue(stay.response().isFenced());
        assertFalse(heartbeat(1, epoch, false, false).response().isFenced());
    }

    @Test
    void controlledShutdownEndsFencedOnceNoPartitionIsLed() {
        long epoch = env.startBroker(1, null);
        ControllerResult<BrokerHeartbeatReply> first = heartbeat(1, epoch, false, true);
        assertFalse(first.response().shouldShutDown());
        assertTrue(env.image.cluster().broker(1).inControlledShutdown());
        assertFalse(cluster.isUsable(1));

        ControllerResult<BrokerHeartbeatReply> stillLeading = cluster.heartbeat(
                new BrokerHeartbeatRequest(1, epoch, env.nextOffset, false, true), env.nowMs, true);
        assertFalse(stillLeading.response().shouldShutDown());
        assertTrue(stillLeading.records().isEmpty());

        ControllerResult<BrokerHeartbeatReply> done = heartbeat(1, epoch, false, true);
        assertTrue(done.response().shouldShutDown());
        assertTrue(env.image.cluster().broker(1).fenced());
        List<MetadataRecord> again = heartbeat(1, epoch, false, true).records();
        assertTrue(again.isEmpty());
    }

    @Test
    void brokersKnownOnlyFromTheImageGetAFullSessionFromTheFirstLook() {
        env.startBroker(1, null);
        ControlManagers rebuilt = ControlManagers.fromImage(env.image, env.settings,
                ControllerTestEnv.topicConfigResolver(), ControllerTestEnv.FEATURES, new java.util.Random(1));
        long takeoverMs = env.nowMs + 60_000;
        assertTrue(rebuilt.fenceStaleBrokers(takeoverMs).records().isEmpty());
        assertEquals(List.of(1), rebuilt.fenceStaleBrokers(takeoverMs + env.settings.sessionTimeoutMs()).response());
    }

    private static BrokerRegistrationRequest restartOf(int brokerId) {
        return new BrokerRegistrationRequest(ControllerTestEnv.CLUSTER_ID, brokerId, UUID.randomUUID(), List.of(),
                Optional.empty());
    }

    @Test
    void aRestartAfterACrashReplacesTheOldIncarnationAtOnceWhenItsConnectionClosed() {
        long first = env.startBroker(1, null);
        // The old process died: its heartbeat stream ended, and the new one registers within the grace.
        env.managers.connectionClosed(1, env.nowMs);
        ControllerResult<Long> restarted = env.commit(env.managers.registerBroker(restartOf(1), env.nowMs + 100));
        assertTrue(restarted.isSuccess(), restarted.error().toString());
        assertTrue(restarted.response() > first);
        assertTrue(env.image.cluster().broker(1).fenced(), "a new incarnation starts fenced");
        // The old incarnation is gone from the controller's view: its heartbeats are stale now.
        assertEquals(Errors.STALE_BROKER_EPOCH, env.managers.heartbeat(
                new BrokerHeartbeatRequest(1, first, env.nextOffset, false, false), env.nowMs + 200).error().error());
        // And the new incarnation, once heard from, is protected from a third one.
        heartbeat(1, restarted.response(), false, false);
        assertEquals(Errors.DUPLICATE_BROKER_REGISTRATION,
                env.managers.registerBroker(restartOf(1), env.nowMs + 300).error().error());
    }

    @Test
    void aCleanRestartReplacesTheOldIncarnationAtOnce() {
        long first = env.startBroker(1, null);
        heartbeat(1, first, false, true);
        assertTrue(heartbeat(1, first, false, true).response().shouldShutDown());
        ControllerResult<Long> restarted = env.managers.registerBroker(restartOf(1), env.nowMs + 1);
        assertTrue(restarted.isSuccess(), restarted.error().toString());
    }

    @Test
    void aControllerThatNeverHeardFromTheOldIncarnationLetsTheNewOneReplaceIt() {
        env.startBroker(1, null);
        env.commit(env.managers.createTopic(CreateTopicRequest.of("led-by-1", 1, 1)));
        // A controller that took over (or restarted) after the broker's process stopped.
        ControlManagers takeover = ControlManagers.fromImage(env.image, env.settings,
                ControllerTestEnv.topicConfigResolver(), ControllerTestEnv.FEATURES, new java.util.Random(1));
        ControllerResult<Long> restarted = takeover.registerBroker(restartOf(1), env.nowMs + 1_000);
        assertTrue(restarted.isSuccess(), restarted.error().toString());
        assertTrue(restarted.records().size() > 1, "the old incarnation's leaderships move: " + restarted.records());
    }
}
