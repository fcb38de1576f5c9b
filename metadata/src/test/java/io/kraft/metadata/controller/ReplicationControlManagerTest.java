package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.errors.Errors;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ReplicationControlManagerTest {
    private ControllerTestEnv env = new ControllerTestEnv();
    private final Map<Integer, Long> epochs = new HashMap<>();

    private void startBrokers(int count) {
        for (int id = 1; id <= count; id++) {
            epochs.put(id, env.startBroker(id, null));
        }
    }

    private UUID create(String name, int partitions, int replicationFactor) {
        ControllerResult<CreateTopicResult> result =
                env.commit(env.managers.createTopic(CreateTopicRequest.of(name, partitions, replicationFactor)));
        assertTrue(result.isSuccess(), result.error().toString());
        return result.response().topicId();
    }

    private void assertRejected(Errors expected, ControllerResult<?> result) {
        assertEquals(expected, result.error().error(), String.valueOf(result.error()));
        assertTrue(result.records().isEmpty(), "no records for a rejected request");
        assertFalse(result.error().message().isEmpty());
    }

    private void fence(int brokerId) {
        env.commit(env.managers.heartbeat(
                new BrokerHeartbeatRequest(brokerId, epochs.get(brokerId), env.nextOffset, true, false), env.nowMs));
    }

    private void unfence(int brokerId) {
        env.commit(env.managers.heartbeat(
                new BrokerHeartbeatRequest(brokerId, epochs.get(brokerId), env.nextOffset, false, false), env.nowMs));
    }

    @Test
    void createsTopicWithEveryPartitionLedByItsFirstReplica() {
        startBrokers(3);
        UUID id = create("orders", 6, 3);
        TopicImage topic = env.image.topics().topic("orders");
        assertEquals(id, topic.id());
        assertEquals(6, topic.partitions().size());
        topic.partitions().values().forEach(p -> {
            assertEquals(3, p.replicas().size());
            assertEquals(p.replicas(), p.isr());
            assertEquals(p.replicas().get(0), p.leader());
            assertEquals(0, p.leaderEpoch());
            assertEquals(0, p.partitionEpoch());
        });
        assertEquals(env.image.topics(), env.managers.replication().image());
    }

    @Test
    void rejectsBadNamesCountsAndReplicationFactors() {
        startBrokers(2);
        create("orders", 1, 1);
        assertRejected(Errors.INVALID_TOPIC_EXCEPTION, env.managers.createTopic(CreateTopicRequest.of("", 1, 1)));
        assertRejected(Errors.INVALID_TOPIC_EXCEPTION, env.managers.createTopic(CreateTopicRequest.of(".", 1, 1)));
        assertRejected(Errors.INVALID_TOPIC_EXCEPTION, env.managers.createTopic(CreateTopicRequest.of("..", 1, 1)));
        assertRejected(Errors.INVALID_TOPIC_EXCEPTION, env.managers.createTopic(CreateTopicRequest.of("a b", 1, 1)));
        assertRejected(Errors.INVALID_TOPIC_EXCEPTION,
                env.managers.createTopic(CreateTopicRequest.of("x".repeat(250), 1, 1)));
        assertTrue(env.managers.createTopic(CreateTopicRequest.of("x".repeat(249), 1, 1)).isSuccess());
        assertTrue(env.managers.createTopic(CreateTopicRequest.of("Az09._-", 1, 1)).isSuccess());
        assertRejected(Errors.TOPIC_ALREADY_EXISTS, env.managers.createTopic(CreateTopicRequest.of("orders", 1, 1)));
        create("web.clicks", 1, 1);
        assertRejected(Errors.INVALID_TOPIC_EXCEPTION, env.managers.createTopic(CreateTopicRequest.of("web_clicks", 1, 1)));
        assertRejected(Errors.INVALID_PARTITIONS, env.managers.createTopic(CreateTopicRequest.of("p", 0, 1)));
        assertRejected(Errors.INVALID_PARTITIONS, env.managers.createTopic(CreateTopicRequest.of("p", Integer.MAX_VALUE, 1)));
        assertRejected(Errors.INVALID_PARTITIONS, env.managers.createPartitions("orders", Integer.MAX_VALUE, List.of()));
        assertRejected(Errors.INVALID_REPLICATION_FACTOR, env.managers.createTopic(CreateTopicRequest.of("r", 1, 3)));
        assertRejected(Errors.INVALID_REPLICATION_FACTOR, env.managers.createTopic(CreateTopicRequest.of("r", 1, 0)));
        fence(2);
        assertRejected(Errors.INVALID_REPLICATION_FACTOR, env.managers.createTopic(CreateTopicRequest.of("r", 1, 2)));
        assertRejected(Errors.INVALID_CONFIG, env.managers.createTopic(new CreateTopicRequest("c", 1, 1, Map.of(),
                Map.of("no.such.config", "1"))));
        assertRejected(Errors.INVALID_CONFIG, env.managers.createTopic(new CreateTopicRequest("c", 1, 1, Map.of(),
                Map.of("retention.ms", "soon"))));
    }

    @Test
    void defaultsApplyWhenCountsAreMinusOne() {
        env = new ControllerTestEnv(new ControllerSettings(ControllerTestEnv.CLUSTER_ID, 9000, 1000, false, 4, 2),
                new Random(1));
        startBrokers(3);
        ControllerResult<CreateTopicResult> result = env.commit(env.managers.createTopic(CreateTopicRequest.of("d", -1, -1)));
        assertEquals(4, result.response().numPartitions());
        assertEquals(2, result.response().replicationFactor());
    }

    @Test
    void explicitAssignmentsAreValidated() {
        startBrokers(3);
        ControllerResult<CreateTopicResult> ok = env.commit(env.managers.createTopic(new CreateTopicRequest("a", -1, -1,
                Map.of(0, List.of(3, 1), 1, List.of(2, 3)), Map.of("retention.ms", "1000"))));
        assertTrue(ok.isSuccess(), ok.error().toString());
        assertEquals(List.of(3, 1), env.image.topics().topic("a").partition(0).replicas());
        assertEquals(3, env.image.topics().topic("a").partition(0).leader());
        assertEquals(Map.of("retention.ms", "1000"),
                env.image.configs().configs(io.kraft.metadata.image.ConfigResource.topic("a")));

        assertRejected(Errors.INVALID_REPLICA_ASSIGNMENT, env.managers.createTopic(new CreateTopicRequest("b", -1, -1,
                Map.of(0, List.of(1, 9)), Map.of())));
        assertRejected(Errors.INVALID_REPLICA_ASSIGNMENT, env.managers.createTopic(new CreateTopicRequest("b", -1, -1,
                Map.of(0, List.of(1, 1)), Map.of())));
        assertRejected(Errors.INVALID_REPLICA_ASSIGNMENT, env.managers.createTopic(new CreateTopicRequest("b", -1, -1,
                Map.of(0, List.of(1), 1, List.of(1, 2)), Map.of())));
        assertRejected(Errors.INVALID_REPLICA_ASSIGNMENT, env.managers.createTopic(new CreateTopicRequest("b", -1, -1,
                Map.of(0, List.of(1), 2, List.of(2)), Map.of())));
        assertRejected(Errors.INVALID_REQUEST, env.managers.createTopic(new CreateTopicRequest("b", 2, -1,
                Map.of(0, List.of(1)), Map.of())));
        fence(1);
        fence(2);
        assertRejected(Errors.INVALID_REPLICA_ASSIGNMENT, env.managers.createTopic(new CreateTopicRequest("b", -1, -1,
                Map.of(0, List.of(1, 2)), Map.of())));
        ControllerResult<CreateTopicResult> partlyFenced = env.commit(env.managers.createTopic(new CreateTopicRequest(
                "c", -1, -1, Map.of(0, List.of(1, 3)), Map.of())));
        assertEquals(new PartitionRegistration(List.of(1, 3), List.of(3), 3, 0, 0),
                env.image.topics().topic("c").partition(0), "fenced replicas start outside the ISR");
        assertTrue(partlyFenced.isSuccess());
    }

    @Test
    void deleteRemovesTheTopicAndItsConfigs() {
        startBrokers(1);
        env.commit(env.managers.createTopic(new CreateTopicRequest("gone", 2, 1, Map.of(),
                Map.of("cleanup.policy", "compact"))));
        ControllerResult<UUID> deleted = env.commit(env.managers.deleteTopic("gone"));
        assertTrue(deleted.isSuccess());
        assertNull(env.image.topics().topic("gone"));
        assertTrue(env.image.configs().configs().isEmpty());
        assertRejected(Errors.UNKNOWN_TOPIC_OR_PARTITION, env.managers.deleteTopic("gone"));
        assertRejected(Errors.UNKNOWN_TOPIC_ID, env.managers.replication().deleteTopic(deleted.response()));
        create("gone", 1, 1);
        assertTrue(env.image.topics().topic("gone").partitions().size() == 1, "the name can be used again");
    }

    @Test
    void createPartitionsAddsWithTheTopicsReplicationFactor() {
        startBrokers(3);
        create("grow", 2, 2);
        assertTrue(env.commit(env.managers.createPartitions("grow", 5, List.of())).isSuccess());
        TopicImage topic = env.image.topics().topic("grow");
        assertEquals(5, topic.partitions().size());
        topic.partitions().values().forEach(p -> assertEquals(2, p.replicas().size()));
        assertRejected(Errors.INVALID_PARTITIONS, env.managers.createPartitions("grow", 5, List.of()));
        assertRejected(Errors.UNKNOWN_TOPIC_OR_PARTITION, env.managers.createPartitions("nope", 5, List.of()));
        assertRejected(Errors.INVALID_REPLICA_ASSIGNMENT, env.managers.createPartitions("grow", 7, List.of(List.of(1, 2))));
        assertRejected(Errors.INVALID_REPLICA_ASSIGNMENT, env.managers.createPartitions("grow", 6, List.of(List.of(1))));
        assertTrue(env.commit(env.managers.createPartitions("grow", 6, List.of(List.of(3, 1)))).isSuccess());
        assertEquals(List.of(3, 1), env.image.topics().topic("grow").partition(5).replicas());
    }

    @Test
    void fencingALeaderElectsTheNextIsrMemberAndShrinksTheIsr() {
        startBrokers(3);
        UUID id = env.commit(env.managers.createTopic(new CreateTopicRequest("t", -1, -1,
                Map.of(0, List.of(1, 2, 3), 1, List.of(2, 1, 3)), Map.of()))).response().topicId();
        fence(1);
        assertEquals(new PartitionRegistration(List.of(1, 2, 3), List.of(2, 3), 2, 1, 1),
                env.image.topics().partition(id, 0));
        assertEquals(new PartitionRegistration(List.of(2, 1, 3), List.of(2, 3), 2, 0, 1),
                env.image.topics().partition(id, 1), "a follower leaving only shrinks the ISR");
        fence(2);
        fence(3);
        PartitionRegistration offline = env.image.topics().partition(id, 0);
        assertEquals(PartitionRegistration.NO_LEADER, offline.leader());
        assertEquals(List.of(3), offline.isr(), "the last ISR member stays in the ISR");
        assertEquals(3, offline.leaderEpoch());

        unfence(1);
        assertEquals(PartitionRegistration.NO_LEADER, env.image.topics().partition(id, 0).leader(),
                "broker 1 left the ISR, so a clean election must wait for broker 3");
        unfence(3);
        PartitionRegistration back = env.image.topics().partition(id, 0);
        assertEquals(3, back.leader());
        assertEquals(List.of(3), back.isr());
        assertEquals(4, back.leaderEpoch());
        assertEquals(env.image.topics(), env.managers.replication().image());
    }

    @Test
    void uncleanElectionPicksAReplicaOutsideTheIsrWhenEnabled() {
        env = new ControllerTestEnv(ControllerSettings.defaults(ControllerTestEnv.CLUSTER_ID)
                .withUncleanLeaderElection(true), new Random(3));
        startBrokers(2);
        UUID id = env.commit(env.managers.createTopic(new CreateTopicRequest("u", -1, -1,
                Map.of(0, List.of(1, 2)), Map.of()))).response().topicId();
        fence(2);
        fence(1);
        assertEquals(PartitionRegistration.NO_LEADER, env.image.topics().partition(id, 0).leader());
        unfence(2);
        assertEquals(new PartitionRegistration(List.of(1, 2), List.of(2), 2, 2, 3), env.image.topics().partition(id, 0));
    }

    @Test
    void controlledShutdownMovesLeadershipBeforeFencing() {
        startBrokers(2);
        UUID id = env.commit(env.managers.createTopic(new CreateTopicRequest("s", -1, -1,
                Map.of(0, List.of(1, 2)), Map.of()))).response().topicId();
        UUID solo = env.commit(env.managers.createTopic(new CreateTopicRequest("solo", -1, -1,
                Map.of(0, List.of(1)), Map.of()))).response().topicId();
        ControllerResult<BrokerHeartbeatReply> asked = env.commit(env.managers.heartbeat(
                new BrokerHeartbeatRequest(1, epochs.get(1), env.nextOffset, false, true), env.nowMs));
        assertFalse(asked.response().shouldShutDown());
        assertEquals(2, env.image.topics().partition(id, 0).leader());
        assertEquals(List.of(2), env.image.topics().partition(id, 0).isr());
        assertEquals(PartitionRegistration.NO_LEADER, env.image.topics().partition(solo, 0).leader());
        assertFalse(env.image.cluster().broker(1).fenced());
        ControllerResult<BrokerHeartbeatReply> done = env.commit(env.managers.heartbeat(
                new BrokerHeartbeatRequest(1, epochs.get(1), env.nextOffset, false, true), env.nowMs));
        assertTrue(done.response().shouldShutDown());
        assertTrue(env.image.cluster().broker(1).fenced());
    }

    @Test
    void alterPartitionChecksEpochsLeadershipAndEligibility() {
        startBrokers(3);
        UUID id = env.commit(env.managers.createTopic(new CreateTopicRequest("a", -1, -1,
                Map.of(0, List.of(1, 2, 3)), Map.of()))).response().topicId();
        long epoch1 = epochs.get(1);
        ControllerResult<PartitionRegistration> shrink = env.commit(env.managers.alterPartition(
                new AlterPartitionRequest(1, epoch1, id, 0, 0, List.of(1, 2), 0)));
        assertEquals(new PartitionRegistration(List.of(1, 2, 3), List.of(1, 2), 1, 0, 1), shrink.response());
        assertEquals(shrink.response(), env.image.topics().partition(id, 0));

        assertRejected(Errors.INVALID_UPDATE_VERSION, env.managers.alterPartition(
                new AlterPartitionRequest(1, epoch1, id, 0, 0, List.of(1, 2, 3), 0)));
        assertRejected(Errors.STALE_BROKER_EPOCH, env.managers.alterPartition(
                new AlterPartitionRequest(1, epoch1 + 100, id, 0, 0, List.of(1, 2, 3), 1)));
        assertRejected(Errors.BROKER_ID_NOT_REGISTERED, env.managers.alterPartition(
                new AlterPartitionRequest(9, -1, id, 0, 0, List.of(1, 2, 3), 1)));
        assertRejected(Errors.NOT_LEADER_OR_FOLLOWER, env.managers.alterPartition(
                new AlterPartitionRequest(2, epochs.get(2), id, 0, 0, List.of(1, 2, 3), 1)));
        assertRejected(Errors.UNKNOWN_TOPIC_ID, env.managers.alterPartition(
                new AlterPartitionRequest(1, epoch1, UUID.randomUUID(), 0, 0, List.of(1), 1)));
        assertRejected(Errors.UNKNOWN_TOPIC_OR_PARTITION, env.managers.alterPartition(
                new AlterPartitionRequest(1, epoch1, id, 4, 0, List.of(1), 1)));
        assertRejected(Errors.INVALID_REQUEST, env.managers.alterPartition(
                new AlterPartitionRequest(1, epoch1, id, 0, 0, List.of(2, 3), 1)));
        assertRejected(Errors.UNKNOWN_LEADER_EPOCH, env.managers.alterPartition(
                new AlterPartitionRequest(1, epoch1, id, 0, 5, List.of(1, 2, 3), 1)));

        fence(3);
        assertRejected(Errors.INELIGIBLE_REPLICA, env.managers.alterPartition(
                new AlterPartitionRequest(1, epoch1, id, 0, 0, List.of(1, 2, 3), 1)));
        ControllerResult<PartitionRegistration> same = env.managers.alterPartition(
                new AlterPartitionRequest(1, epoch1, id, 0, 0, List.of(1, 2), 1));
        assertTrue(same.records().isEmpty());
        assertEquals(env.image.topics().partition(id, 0), same.response());

        fence(1);
        assertRejected(Errors.FENCED_LEADER_EPOCH, env.managers.alterPartition(
                new AlterPartitionRequest(1, epoch1, id, 0, 0, List.of(1, 2), 2)));
        unfence(3);
        PartitionRegistration now = env.image.topics().partition(id, 0);
        ControllerResult<PartitionRegistration> expand = env.commit(env.managers.alterPartition(
                new AlterPartitionRequest(2, epochs.get(2), id, 0, now.leaderEpoch(), List.of(2, 3), now.partitionEpoch())));
        assertEquals(List.of(2, 3), expand.response().isr());
    }

    @Test
    void anExpansionOnTheWordOfAStaleIncarnationIsRefused() {
        startBrokers(3);
        UUID id = env.commit(env.managers.createTopic(new CreateTopicRequest("k", -1, -1,
                Map.of(0, List.of(1, 2, 3)), Map.of()))).response().topicId();
        long oldEpoch3 = epochs.get(3);
        env.commit(env.managers.alterPartition(new AlterPartitionRequest(1, epochs.get(1), id, 0, 0, List.of(1, 2), 0)));

        // Broker 3 restarts with an empty disk: a new incarnation, a new broker epoch, unfenced once caught up.
        env.nowMs += env.settings.sessionTimeoutMs();
        ControllerResult<Long> restarted = env.commit(env.managers.registerBroker(new BrokerRegistrationRequest(
                ControllerTestEnv.CLUSTER_ID, 3, UUID.randomUUID(), List.of(), java.util.Optional.empty()), env.nowMs));
        assertTrue(restarted.isSuccess(), restarted.error().toString());
        epochs.put(3, restarted.response());
        assertTrue(restarted.response() > oldEpoch3);
        unfence(3);

        // The leader saw the old incarnation catch up: that says nothing of the new one's log (KIP-903).
        PartitionRegistration now = env.image.topics().partition(id, 0);
        assertRejected(Errors.INELIGIBLE_REPLICA, env.managers.alterPartition(new AlterPartitionRequest(1,
                epochs.get(1), id, 0, now.leaderEpoch(), List.of(1, 2, 3), now.partitionEpoch(),
                List.of(epochs.get(1), epochs.get(2), oldEpoch3))));
        assertTrue(env.managers.alterPartition(new AlterPartitionRequest(1, epochs.get(1), id, 0, now.leaderEpoch(),
                List.of(1, 2, 3), now.partitionEpoch(), List.of(epochs.get(1), epochs.get(2), epochs.get(3))))
                .isSuccess(), "the new incarnation's own fetches count");
        assertTrue(env.managers.alterPartition(new AlterPartitionRequest(1, epochs.get(1), id, 0, now.leaderEpoch(),
                List.of(1, 2, 3), now.partitionEpoch())).isSuccess(), "an epoch the leader does not know is not checked");
    }

    @Test
    void reRegistrationBeforeTheFencingTimerMovesTheOldIncarnationsLeaderships() {
        startBrokers(2);
        UUID id = env.commit(env.managers.createTopic(new CreateTopicRequest("r", -1, -1,
                Map.of(0, List.of(1, 2)), Map.of()))).response().topicId();
        env.nowMs += env.settings.sessionTimeoutMs();
        ControllerResult<Long> restarted = env.commit(env.managers.registerBroker(new BrokerRegistrationRequest(
                ControllerTestEnv.CLUSTER_ID, 1, UUID.randomUUID(), List.of(), java.util.Optional.empty()), env.nowMs));
        assertTrue(restarted.isSuccess(), restarted.error().toString());
        assertTrue(env.image.cluster().broker(1).fenced());
        assertEquals(new PartitionRegistration(List.of(1, 2), List.of(2), 2, 1, 1), env.image.topics().partition(id, 0));
    }
}
