package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ReassignmentControlManagerTest {
    private final ControllerTestEnv env = new ControllerTestEnv();
    private final Map<Integer, Long> epochs = new HashMap<>();
    private final List<io.kraft.proto.metadata.MetadataRecord> log = new ArrayList<>();
    private UUID topicId;

    private void start(int brokers, List<Integer> replicas) {
        env.batchListener = (records, lastOffset) -> log.addAll(records);
        for (int id = 1; id <= brokers; id++) {
            epochs.put(id, env.startBroker(id, null));
        }
        topicId = env.commit(env.managers.createTopic(new CreateTopicRequest("t", -1, -1, Map.of(0, replicas),
                Map.of()))).response().topicId();
    }

    private PartitionRegistration partition() {
        return env.image.topics().partition(topicId, 0);
    }

    private ApiError reassign(List<Integer> target, boolean allowReplicationFactorChange) {
        Map<Integer, Optional<List<Integer>>> partitions = new HashMap<>();
        partitions.put(0, Optional.ofNullable(target));
        ControllerResult<Map<String, Map<Integer, ApiError>>> result = env.commit(
                env.managers.alterPartitionReassignments(Map.of("t", partitions), allowReplicationFactorChange));
        return result.response().get("t").get(0);
    }

    /** The leader's AlterPartition adding a caught-up replica to the ISR; answers what the leader is told. */
    private PartitionRegistration join(int brokerId) {
        PartitionRegistration p = partition();
        List<Integer> isr = new ArrayList<>(p.isr());
        isr.add(brokerId);
        ControllerResult<PartitionRegistration> result = env.commit(env.managers.alterPartition(new AlterPartitionRequest(
                p.leader(), epochs.get(p.leader()), topicId, 0, p.leaderEpoch(), isr, p.partitionEpoch())));
        assertTrue(result.isSuccess(), result.error().toString());
        return result.response();
    }

    @Test
    void movingEveryReplicaAddsTheTargetsThenDropsTheOldOnesOnceTheyAreInSync() {
        start(4, List.of(1, 2));
        assertEquals(ApiError.NONE, reassign(List.of(3, 4), false));
        PartitionRegistration moving = partition();
        assertEquals(List.of(3, 4, 1, 2), moving.replicas());
        assertEquals(List.of(3, 4), moving.addingReplicas());
        assertEquals(List.of(1, 2), moving.removingReplicas());
        assertEquals(1, moving.leader(), "the old leader leads until the targets are in sync");
        assertTrue(moving.isReassigning());

        PartitionRegistration told = join(3);
        assertEquals(List.of(1, 2, 3), told.isr());
        assertTrue(partition().isReassigning(), "broker 4 has not caught up");
        told = join(4);
        PartitionRegistration done = partition();
        assertEquals(List.of(3, 4), done.replicas());
        assertEquals(List.of(3, 4), done.isr());
        assertEquals(3, done.leader(), "leadership moves to a target replica");
        assertFalse(done.isReassigning());
        assertEquals(1, told.leader(), "the old leader is answered the ISR change it asked for");
    }

    @Test
    void replicationFactorChangesOneToThreeToTwo() {
        start(3, List.of(1));
        assertEquals(Errors.INVALID_REPLICATION_FACTOR, reassign(List.of(1, 2, 3), false).error());
        assertEquals(ApiError.NONE, reassign(List.of(1, 2, 3), true));
        assertEquals(List.of(2, 3), partition().addingReplicas());
        join(2);
        PartitionRegistration told = join(3);
        assertEquals(new PartitionRegistration(List.of(1, 2, 3), List.of(1, 2, 3), 1, 0, 4), partition());
        assertEquals(partition(), told, "the leader stays and is answered the final state");

        assertEquals(ApiError.NONE, reassign(List.of(2, 3), true));
        PartitionRegistration shrunk = partition();
        assertEquals(List.of(2, 3), shrunk.replicas(), "nothing to wait for: it completes at once");
        assertEquals(List.of(2, 3), shrunk.isr());
        assertEquals(2, shrunk.leader());
        assertFalse(shrunk.isReassigning());
    }

    @Test
    void cancellingDropsTheAddingReplicasAndKeepsTheOriginalOnes() {
        start(4, List.of(1, 2));
        assertEquals(Errors.NO_REASSIGNMENT_IN_PROGRESS, reassign(null, true).error());
        assertEquals(ApiError.NONE, reassign(List.of(3, 4), true));
        join(3);
        assertEquals(ApiError.NONE, reassign(null, true));
        PartitionRegistration reverted = partition();
        assertEquals(List.of(1, 2), reverted.replicas());
        assertEquals(List.of(1, 2), reverted.isr());
        assertEquals(1, reverted.leader());
        assertFalse(reverted.isReassigning());
    }

    @Test
    void invalidTargetsAreRefusedAndChangeNothing() {
        start(3, List.of(1, 2));
        assertEquals(Errors.INVALID_REPLICA_ASSIGNMENT, reassign(List.of(), true).error());
        assertEquals(Errors.INVALID_REPLICA_ASSIGNMENT, reassign(List.of(1, 1), true).error());
        assertEquals(Errors.INVALID_REPLICA_ASSIGNMENT, reassign(List.of(1, 9), true).error());
        Map<Integer, Optional<List<Integer>>> missing = Map.of(5, Optional.of(List.of(1)));
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION, env.managers.alterPartitionReassignments(
                Map.of("t", missing, "nope", Map.of(0, Optional.of(List.of(1)))), true).response().get("t").get(5)
                .error());
        assertEquals(new PartitionRegistration(List.of(1, 2), List.of(1, 2), 1, 0, 0), partition());
        assertEquals(ApiError.NONE, reassign(List.of(1, 2), true), "the current replicas: nothing to do");
        assertEquals(0, partition().partitionEpoch());
    }

    @Test
    void aReassignmentSurvivesControllerFailoverThroughItsRecords() {
        start(4, List.of(1, 2));
        assertEquals(ApiError.NONE, reassign(List.of(3, 4), true));
        join(3);
        // A new active controller builds its managers from the records alone.
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.replayBatch(log, 0, 1);
        MetadataImage replayed = delta.apply();
        assertEquals(env.image.topics(), replayed.topics());
        ControlManagers successor = ControlManagers.fromImage(replayed, env.settings,
                ControllerTestEnv.topicConfigResolver(), ControllerTestEnv.FEATURES, new Random(1));
        PartitionRegistration p = replayed.topics().partition(topicId, 0);
        ControllerResult<PartitionRegistration> completed = successor.alterPartition(new AlterPartitionRequest(
                1, epochs.get(1), topicId, 0, p.leaderEpoch(), List.of(1, 2, 3, 4), p.partitionEpoch()));
        assertTrue(completed.isSuccess(), completed.error().toString());
        assertEquals(2, completed.records().size(), "the ISR change and the completion");
        successor.replayBatch(completed.records(), env.nextOffset, 2);
        PartitionRegistration done = successor.replication().partition(topicId, 0);
        assertEquals(List.of(3, 4), done.replicas());
        assertEquals(3, done.leader());
    }
}
