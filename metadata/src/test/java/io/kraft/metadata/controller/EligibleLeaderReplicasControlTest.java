package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.TopicConfigs;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Eligible leader replicas (KIP-966) in the controller: replicas leaving an ISR below min.insync.replicas keep the
 * right to lead, a replica that restarted after an unclean shutdown loses it, and without the feature nothing changes.
 */
class EligibleLeaderReplicasControlTest {
    private final ControllerTestEnv env = new ControllerTestEnv(ControllerSettings.defaults(ControllerTestEnv.CLUSTER_ID),
            new Random(7));
    private final Map<Integer, Long> epochs = new HashMap<>();
    private UUID topicId;

    /** Three brokers and a topic with replicas 1, 2, 3 and {@code minIsr}; ELR on or off. */
    private void start(boolean elr, int minIsr) {
        if (elr) {
            assertTrue(env.commit(env.managers.updateFeature(ElrRule.FEATURE, 1)).isSuccess());
        }
        for (int id = 1; id <= 3; id++) {
            epochs.put(id, env.startBroker(id, null));
        }
        topicId = env.commit(env.managers.createTopic(new CreateTopicRequest("t", -1, -1, Map.of(0, List.of(1, 2, 3)),
                Map.of(TopicConfigs.MIN_INSYNC_REPLICAS, String.valueOf(minIsr))))).response().topicId();
    }

    private PartitionRegistration partition() {
        return env.image.topics().partition(topicId, 0);
    }

    private void alterIsr(List<Integer> isr) {
        PartitionRegistration p = partition();
        ControllerResult<PartitionRegistration> result = env.commit(env.managers.alterPartition(new AlterPartitionRequest(
                p.leader(), epochs.get(p.leader()), topicId, 0, p.leaderEpoch(), isr, p.partitionEpoch())));
        assertTrue(result.isSuccess(), String.valueOf(result.error()));
        assertEquals(partition(), result.response(), "the leader is answered the state with the ELR");
    }

    /** The leader 1 drops 3, then 2 from the ISR. */
    private void shrinkToTheLeader() {
        alterIsr(List.of(1, 2));
        alterIsr(List.of(1));
    }

    /** Brokers 3, 2 and 1 are fenced in turn: the partition loses every ISR member. */
    private void fenceAll() {
        fence(3);
        fence(2);
        fence(1);
    }

    private void fence(int brokerId) {
        env.commit(env.managers.heartbeat(
                new BrokerHeartbeatRequest(brokerId, epochs.get(brokerId), env.nextOffset, true, false), env.nowMs));
    }

    /** A new process of the broker registers, saying whether the previous one shut down cleanly, and is unfenced. */
    private void restart(int brokerId, boolean clean) {
        long previous = epochs.get(brokerId);
        BrokerRegistrationRequest request = ControllerTestEnv.registration(brokerId, null);
        request = new BrokerRegistrationRequest(request.clusterId(), brokerId, UUID.randomUUID(), request.listeners(),
                request.rack(), List.of(), clean ? previous : BrokerRegistrationRequest.NO_CLEAN_SHUTDOWN);
        ControllerResult<Long> registered = env.commit(env.managers.registerBroker(request, env.nowMs));
        assertTrue(registered.isSuccess(), String.valueOf(registered.error()));
        epochs.put(brokerId, registered.response());
        env.commit(env.managers.heartbeat(
                new BrokerHeartbeatRequest(brokerId, registered.response(), env.nextOffset, false, false), env.nowMs));
    }

    private void assertPartition(int leader, List<Integer> isr, List<Integer> elr, List<Integer> lastKnownElr) {
        PartitionRegistration p = partition();
        assertEquals(List.of(leader, isr, elr, lastKnownElr), List.of(p.leader(), p.isr(), p.elr(), p.lastKnownElr()),
                "leader, ISR, ELR, last-known ELR of " + p);
    }

    @Test
    void replicasLeavingAnIsrBelowMinIsrJoinTheElr() {
        start(true, 2);
        alterIsr(List.of(1, 2));
        assertPartition(1, List.of(1, 2), List.of(), List.of());
        alterIsr(List.of(1));
        assertPartition(1, List.of(1), List.of(2), List.of());
        assertEquals(Map.of(2, Set.of(new TopicIdPartition(topicId, 0))),
                env.managers.replication().indexes().get("elrMembership"));
    }

    @Test
    void whenTheLeaderDiesAnElrMemberLeads() {
        start(true, 2);
        shrinkToTheLeader();
        fence(1);
        assertPartition(2, List.of(2), List.of(1), List.of());
        assertEquals(0, env.managers.replication().uncleanLeaderElections(), "an ELR member leads cleanly");
    }

    @Test
    void withoutTheFeatureTheSameFailureLeavesThePartitionLeaderless() {
        start(false, 2);
        shrinkToTheLeader();
        fence(1);
        assertPartition(PartitionRegistration.NO_LEADER, List.of(1), List.of(), List.of());
    }

    @Test
    void aReplicaRestartedAfterAnUncleanShutdownIsNotElectedAheadOfOneWithTheData() {
        start(true, 3);
        fence(3);
        assertPartition(1, List.of(1, 2), List.of(3), List.of());
        fence(2);
        assertPartition(1, List.of(1), List.of(2, 3), List.of());
        fence(1);
        assertPartition(PartitionRegistration.NO_LEADER, List.of(), List.of(1, 2, 3), List.of());

        restart(1, false);
        assertPartition(PartitionRegistration.NO_LEADER, List.of(), List.of(2, 3), List.of(1));
        restart(2, true);
        assertPartition(2, List.of(2), List.of(3), List.of(1));
        assertEquals(0, env.managers.replication().uncleanLeaderElections());
    }

    @Test
    void withNoReplicaKnownToHoldTheDataTheLastKnownElrMemberLeadsAgain() {
        start(true, 1);
        fenceAll();
        assertPartition(PartitionRegistration.NO_LEADER, List.of(), List.of(1), List.of());
        restart(2, false);
        assertPartition(PartitionRegistration.NO_LEADER, List.of(), List.of(1), List.of());
        restart(1, false);
        assertPartition(1, List.of(1), List.of(), List.of());
    }

    @Test
    void withoutTheFeatureTheLastReplicaStandingLeadsAfterAnUncleanShutdown() {
        start(false, 3);
        fenceAll();
        restart(1, false);
        assertPartition(1, List.of(1), List.of(), List.of());
    }

    @Test
    void aCleanRestartKeepsTheElrMembership() {
        start(true, 2);
        shrinkToTheLeader();
        fence(2);
        assertPartition(1, List.of(1), List.of(2), List.of());
        restart(2, true);
        assertPartition(1, List.of(1), List.of(2), List.of());
        fence(3);
        restart(3, false);
        assertPartition(1, List.of(1), List.of(2), List.of());
    }

    @Test
    void isrExpansionLeavesTheElrAndReachingMinIsrClearsTheLastKnownElr() {
        start(true, 3);
        fenceAll();
        restart(1, false);
        restart(2, true);
        restart(3, true);
        assertPartition(2, List.of(2), List.of(3), List.of(1));
        alterIsr(List.of(2, 3));
        assertPartition(2, List.of(2, 3), List.of(), List.of(1));
        alterIsr(List.of(1, 2, 3));
        assertPartition(2, List.of(1, 2, 3), List.of(), List.of());
    }

    @Test
    void loweringMinIsrToTheIsrSizeClearsTheElr() {
        start(true, 2);
        shrinkToTheLeader();
        setMinIsr(ConfigResource.topic("t"), "3");
        assertPartition(1, List.of(1), List.of(2), List.of());
        setMinIsr(ConfigResource.topic("t"), "1");
        assertPartition(1, List.of(1), List.of(), List.of());
        assertEquals(Set.of(), env.managers.replication().indexes().get("withElr"));
    }

    @Test
    void anUncleanElectionClearsTheElr() {
        start(true, 3);
        fenceAll();
        restart(1, false);
        assertPartition(PartitionRegistration.NO_LEADER, List.of(), List.of(2, 3), List.of(1));
        ControllerResult<Void> result = env.commit(env.managers.incrementalAlterConfigs(ConfigResource.topic("t"),
                Map.of(ControllerSettings.UNCLEAN_LEADER_ELECTION_ENABLE, Optional.of("true"))));
        assertTrue(result.isSuccess());
        assertPartition(1, List.of(1), List.of(), List.of());
        assertEquals(1, env.managers.replication().uncleanLeaderElections());
    }

    private void setMinIsr(ConfigResource resource, String value) {
        ControllerResult<Void> result = env.commit(env.managers.incrementalAlterConfigs(resource,
                Map.of(TopicConfigs.MIN_INSYNC_REPLICAS, Optional.of(value))));
        assertTrue(result.isSuccess(), String.valueOf(result.error()));
    }
}
