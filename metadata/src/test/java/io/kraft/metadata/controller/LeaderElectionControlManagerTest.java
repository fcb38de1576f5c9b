package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.storage.errors.Errors;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class LeaderElectionControlManagerTest {
    private final ControllerTestEnv env = new ControllerTestEnv();
    private final Map<Integer, Long> epochs = new HashMap<>();
    private UUID topicId;

    private void startBrokers(int count) {
        for (int id = 1; id <= count; id++) {
            epochs.put(id, env.startBroker(id, null));
        }
    }

    /** Topic "t": partition p has replicas p+1, p+2, p+3 (mod 3), so each broker is preferred once. */
    private void createBalancedTopic() {
        topicId = env.commit(env.managers.createTopic(new CreateTopicRequest("t", -1, -1,
                Map.of(0, List.of(1, 2, 3), 1, List.of(2, 3, 1), 2, List.of(3, 1, 2)), Map.of()))).response().topicId();
    }

    private void heartbeat(int brokerId, boolean wantFence) {
        env.commit(env.managers.heartbeat(new BrokerHeartbeatRequest(brokerId, epochs.get(brokerId), env.nextOffset,
                wantFence, false), env.nowMs));
    }

    private PartitionRegistration partition(int id) {
        return env.image.topics().partition(topicId, id);
    }

    /** The leader re-admits the returning broker into the ISR, as a leader's AlterPartition does once it caught up. */
    private void rejoinIsr(int partitionId, int brokerId) {
        PartitionRegistration p = partition(partitionId);
        List<Integer> isr = new java.util.ArrayList<>(p.isr());
        isr.add(brokerId);
        ControllerResult<PartitionRegistration> result = env.commit(env.managers.alterPartition(new AlterPartitionRequest(
                p.leader(), epochs.get(p.leader()), topicId, partitionId, p.leaderEpoch(), isr, p.partitionEpoch())));
        assertTrue(result.isSuccess(), result.error().toString());
    }

    private Map<Integer, ApiError> elect(ElectionType type, Integer... partitions) {
        ControllerResult<Map<String, Map<Integer, ApiError>>> result = env.commit(env.managers.electLeaders(type,
                Optional.of(Map.of("t", Set.of(partitions)))));
        return result.response().get("t");
    }

    @Test
    void preferredElectionMovesLeadershipBackOnlyWhenThePreferredReplicaIsInSyncAndUnfenced() {
        startBrokers(3);
        createBalancedTopic();
        assertEquals(Errors.ELECTION_NOT_NEEDED, elect(ElectionType.PREFERRED, 0).get(0).error());

        heartbeat(1, true);
        assertEquals(2, partition(0).leader());
        assertEquals(Errors.PREFERRED_LEADER_NOT_AVAILABLE, elect(ElectionType.PREFERRED, 0).get(0).error(),
                "fenced");
        heartbeat(1, false);
        assertEquals(Errors.PREFERRED_LEADER_NOT_AVAILABLE, elect(ElectionType.PREFERRED, 0).get(0).error(),
                "unfenced but not yet back in the ISR");
        rejoinIsr(0, 1);
        Map<Integer, ApiError> results = elect(ElectionType.PREFERRED, 0, 1);
        assertEquals(ApiError.NONE, results.get(0));
        assertEquals(Errors.ELECTION_NOT_NEEDED, results.get(1).error());
        assertEquals(1, partition(0).leader());
        assertEquals(2, partition(0).leaderEpoch(), "each election starts a new leader epoch");

        ControllerResult<Map<String, Map<Integer, ApiError>>> unknown = env.managers.electLeaders(
                ElectionType.PREFERRED, Optional.of(Map.of("t", Set.of(7), "nope", Set.of(0))));
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION, unknown.response().get("t").get(7).error());
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION, unknown.response().get("nope").get(0).error());
        assertTrue(unknown.records().isEmpty());
    }

    @Test
    void electingEveryPartitionAnswersOnlyThoseThatNeededAnElection() {
        startBrokers(3);
        createBalancedTopic();
        heartbeat(1, true);
        heartbeat(1, false);
        ControllerResult<Map<String, Map<Integer, ApiError>>> notYet = env.commit(
                env.managers.electLeaders(ElectionType.PREFERRED, Optional.empty()));
        assertEquals(Map.of("t", Map.of(0, ApiError.of(Errors.PREFERRED_LEADER_NOT_AVAILABLE, null))).keySet(),
                notYet.response().keySet());
        assertEquals(Errors.PREFERRED_LEADER_NOT_AVAILABLE, notYet.response().get("t").get(0).error());
        assertEquals(Set.of(0), notYet.response().get("t").keySet());
        rejoinIsr(0, 1);
        rejoinIsr(2, 1);
        ControllerResult<Map<String, Map<Integer, ApiError>>> all = env.commit(
                env.managers.electLeaders(ElectionType.PREFERRED, Optional.empty()));
        assertEquals(Map.of("t", Map.of(0, ApiError.NONE)), all.response());
        assertEquals(List.of(1, 2, 3), List.of(partition(0).leader(), partition(1).leader(), partition(2).leader()));
        assertEquals(Map.of(), env.commit(env.managers.electLeaders(ElectionType.PREFERRED, Optional.empty()))
                .response());
    }

    @Test
    void uncleanElectionPicksAReplicaOutsideTheIsrOnlyForALeaderlessPartition() {
        startBrokers(2);
        topicId = env.commit(env.managers.createTopic(new CreateTopicRequest("t", -1, -1,
                Map.of(0, List.of(1, 2)), Map.of()))).response().topicId();
        PartitionRegistration p = partition(0);
        env.commit(env.managers.alterPartition(new AlterPartitionRequest(1, epochs.get(1), topicId, 0,
                p.leaderEpoch(), List.of(1), p.partitionEpoch())));
        assertEquals(Errors.ELECTION_NOT_NEEDED, elect(ElectionType.UNCLEAN, 0).get(0).error());
        heartbeat(1, true);
        assertEquals(PartitionRegistration.NO_LEADER, partition(0).leader(), "no clean candidate");
        assertEquals(Errors.PREFERRED_LEADER_NOT_AVAILABLE, elect(ElectionType.PREFERRED, 0).get(0).error());
        heartbeat(2, true);
        assertEquals(Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE, elect(ElectionType.UNCLEAN, 0).get(0).error());
        heartbeat(2, false);
        assertEquals(ApiError.NONE, elect(ElectionType.UNCLEAN, 0).get(0));
        assertEquals(2, partition(0).leader());
        assertEquals(List.of(2), partition(0).isr());
    }

    @Test
    void balancingMovesABrokersLeadershipsBackOnlyAboveTheImbalancePercentage() {
        startBrokers(3);
        topicId = env.commit(env.managers.createTopic(new CreateTopicRequest("t", -1, -1, Map.of(
                0, List.of(1, 2), 1, List.of(1, 2), 2, List.of(1, 2), 3, List.of(1, 2), 4, List.of(2, 1)), Map.of())))
                .response().topicId();
        heartbeat(1, true);
        heartbeat(1, false);
        assertEquals(List.of(), env.commit(env.managers.balanceLeaders(10)).response(), "broker 1 not in any ISR yet");
        rejoinIsr(0, 1);
        assertEquals(List.of(new TopicIdPartition(topicId, 0)), env.commit(env.managers.balanceLeaders(10)).response());
        assertEquals(1, partition(0).leader());
        rejoinIsr(1, 1);
        rejoinIsr(2, 1);
        rejoinIsr(3, 1);
        // Three of broker 1's four preferred leaderships are elsewhere: 75 % is not above 80 %.
        assertEquals(List.of(), env.commit(env.managers.balanceLeaders(80)).response());
        assertEquals(3, env.commit(env.managers.balanceLeaders(10)).response().size());
        assertEquals(List.of(1, 1, 1, 1, 2), List.of(partition(0).leader(), partition(1).leader(),
                partition(2).leader(), partition(3).leader(), partition(4).leader()));
        assertEquals(List.of(), env.commit(env.managers.balanceLeaders(0)).response());
    }

    @Test
    void aRequestNamingMorePartitionsThanOneBatchHoldsIsRefusedWhole() {
        startBrokers(1);
        Set<Integer> many = new java.util.HashSet<>();
        for (int p = 0; p <= LeaderElectionControlManager.MAX_PARTITIONS_PER_REQUEST; p++) {
            many.add(p);
        }
        ControllerResult<Map<String, Map<Integer, ApiError>>> result = env.managers.electLeaders(
                ElectionType.PREFERRED, Optional.of(Map.of("t", many)));
        assertEquals(Errors.INVALID_REQUEST, result.error().error());
        Map<Integer, Optional<List<Integer>>> targets = new HashMap<>();
        many.forEach(p -> targets.put(p, Optional.of(List.of(1))));
        assertEquals(Errors.INVALID_REQUEST, env.managers.alterPartitionReassignments(Map.of("t", targets), true)
                .error().error());
    }
}
