package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.PartitionRegistration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code unclean.leader.election.enable} in the controller: the topic's setting overrides the cluster-wide dynamic
 * default, which overrides the controller's static one; enabling it elects a leaderless partition's live replica at
 * once; each unclean election is counted.
 */
class UncleanElectionControlTest {
    private ControllerTestEnv env;
    private final Map<Integer, Long> epochs = new HashMap<>();
    private UUID topicId;

    /** Replicas 1 and 2; 2 fell out of the ISR, then 1 was fenced: no leader, and 2 is alive outside the ISR. */
    private void leaderlessWithALiveReplicaOutsideTheIsr(boolean staticSetting, Map<String, String> topicConfigs) {
        leaderlessWithALiveReplicaOutsideTheIsr(staticSetting, null, topicConfigs);
    }

    private void leaderlessWithALiveReplicaOutsideTheIsr(boolean staticSetting, String clusterDefault,
                                                         Map<String, String> topicConfigs) {
        env = new ControllerTestEnv(ControllerSettings.defaults(ControllerTestEnv.CLUSTER_ID)
                .withUncleanLeaderElection(staticSetting), new Random(5));
        for (int id = 1; id <= 2; id++) {
            epochs.put(id, env.startBroker(id, null));
        }
        if (clusterDefault != null) {
            setConfig(ConfigResource.broker(""), clusterDefault);
        }
        topicId = env.commit(env.managers.createTopic(new CreateTopicRequest("u", -1, -1,
                Map.of(0, List.of(1, 2)), topicConfigs))).response().topicId();
        env.commit(env.managers.alterPartition(new AlterPartitionRequest(1, epochs.get(1), topicId, 0, 0, List.of(1), 0)));
        heartbeat(1, true);
        assertEquals(PartitionRegistration.NO_LEADER, partition().leader());
        assertEquals(List.of(1), partition().isr());
    }

    private void heartbeat(int brokerId, boolean fenced) {
        env.commit(env.managers.heartbeat(
                new BrokerHeartbeatRequest(brokerId, epochs.get(brokerId), env.nextOffset, fenced, false), env.nowMs));
    }

    private PartitionRegistration partition() {
        return env.image.topics().partition(topicId, 0);
    }

    private void setConfig(ConfigResource resource, String value) {
        ControllerResult<Void> result = env.commit(env.managers.incrementalAlterConfigs(resource,
                Map.of(ControllerSettings.UNCLEAN_LEADER_ELECTION_ENABLE, Optional.ofNullable(value))));
        assertTrue(result.isSuccess(), String.valueOf(result.error()));
    }

    @Test
    void enablingItOnTheTopicElectsTheLiveReplicaAtOnceAndCountsIt() {
        leaderlessWithALiveReplicaOutsideTheIsr(false, Map.of());
        assertEquals(0, env.managers.replication().uncleanLeaderElections());

        setConfig(ConfigResource.topic("u"), "true");
        assertEquals(2, partition().leader(), "the topic's setting overrides the controller's static false");
        assertEquals(List.of(2), partition().isr());
        assertEquals(1, env.managers.replication().uncleanLeaderElections());
    }

    @Test
    void theTopicsFalseOverridesTheClusterDefaultsAndTheStaticTrue() {
        leaderlessWithALiveReplicaOutsideTheIsr(true, Map.of(ControllerSettings.UNCLEAN_LEADER_ELECTION_ENABLE, "false"));
        setConfig(ConfigResource.broker(""), "true");
        heartbeat(2, false);
        assertEquals(PartitionRegistration.NO_LEADER, partition().leader(), "the topic says false");
        assertEquals(0, env.managers.replication().uncleanLeaderElections());

        setConfig(ConfigResource.topic("u"), null);
        assertEquals(2, partition().leader(), "without the topic's override the cluster default (true) applies");
        assertEquals(1, env.managers.replication().uncleanLeaderElections());
    }

    @Test
    void theClusterDefaultOverridesTheStaticSetting() {
        leaderlessWithALiveReplicaOutsideTheIsr(true, "false", Map.of());
        heartbeat(2, false);
        assertEquals(PartitionRegistration.NO_LEADER, partition().leader(), "the cluster default false wins");
        setConfig(ConfigResource.broker(""), "true");
        assertEquals(2, partition().leader());
        assertEquals(1, env.managers.replication().uncleanLeaderElections());
    }
}
