package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * AssignReplicasToDirs (KIP-858): a broker reports the directory a replica moved to, the partition's directories
 * change, and a directory recorded before the move no longer decides whether the replica is online.
 */
class DirectoryAssignmentControlTest {
    private static final UUID DIR_A = new UUID(1, 0xA);
    private static final UUID DIR_B = new UUID(1, 0xB);
    private static final UUID UNKNOWN = PartitionRegistration.UNKNOWN_DIRECTORY;

    private final ControllerTestEnv env = new ControllerTestEnv();

    @Test
    void aMovedReplicaIsRecordedInItsNewDirectoryOnce() {
        long epoch1 = env.startBrokerWithDirs(1, List.of(DIR_A, DIR_B));
        env.startBrokerWithDirs(2, List.of(new UUID(2, 1)));
        UUID topic = createTopic("t", Map.of(0, List.of(2, 1)));
        TopicIdPartition p0 = new TopicIdPartition(topic, 0);

        ControllerResult<Map<TopicIdPartition, Errors>> result = env.commit(env.managers.assignReplicasToDirs(
                new AssignReplicasToDirsRequest(1, epoch1, Map.of(p0, DIR_B))));
        assertEquals(Map.of(p0, Errors.NONE), result.response());
        assertEquals(List.of(UNKNOWN, DIR_B), partition(p0).directories());
        assertEquals(List.of(2, 1), partition(p0).isr(), "only the directory changes");

        long before = env.nextOffset;
        result = env.commit(env.managers.assignReplicasToDirs(new AssignReplicasToDirsRequest(1, epoch1,
                Map.of(p0, DIR_B))));
        assertEquals(Map.of(p0, Errors.NONE), result.response());
        assertEquals(before, env.nextOffset, "a repeated report writes nothing");
    }

    @Test
    void aDirectoryRecordedBeforeAMoveNoLongerTakesTheReplicaOffline() {
        long epoch1 = env.startBrokerWithDirs(1, List.of(DIR_A, DIR_B));
        long epoch2 = env.startBrokerWithDirs(2, List.of(new UUID(2, 1)));
        UUID topic = createTopic("t", Map.of(0, List.of(1, 2)));
        TopicIdPartition p0 = new TopicIdPartition(topic, 0);
        // A failed once (recording the replica there) and came back; the replica caught up again.
        env.commit(env.managers.heartbeat(offline(1, epoch1, new OfflineLogDir(DIR_A, List.of(p0))), env.nowMs));
        epoch1 = env.restartBroker(1, List.of(DIR_A, DIR_B));
        PartitionRegistration now = partition(p0);
        assertTrue(env.commit(env.managers.alterPartition(new AlterPartitionRequest(2, epoch2, topic, 0,
                now.leaderEpoch(), List.of(2, 1), now.partitionEpoch()))).isSuccess());
        assertEquals(Optional.of(DIR_A), partition(p0).directoryOf(1));

        // The replica moved to B, then A fails again: the replica in B stays in the ISR.
        env.commit(env.managers.assignReplicasToDirs(new AssignReplicasToDirsRequest(1, epoch1, Map.of(p0, DIR_B))));
        assertEquals(Optional.of(DIR_B), partition(p0).directoryOf(1));
        env.commit(env.managers.heartbeat(offline(1, epoch1, new OfflineLogDir(DIR_A, List.of())), env.nowMs));
        assertTrue(partition(p0).isr().contains(1), String.valueOf(partition(p0)));
        assertEquals(Optional.of(DIR_B), partition(p0).directoryOf(1));
    }

    @Test
    void badAssignmentsAreRefusedWithKafkasErrorsAndChangeNothing() {
        long epoch1 = env.startBrokerWithDirs(1, List.of(DIR_A, DIR_B));
        env.startBrokerWithDirs(2, List.of(new UUID(2, 1)));
        UUID topic = createTopic("t", Map.of(0, List.of(1), 1, List.of(2)));
        TopicIdPartition p0 = new TopicIdPartition(topic, 0);
        long before = env.nextOffset;

        assertEquals(Errors.STALE_BROKER_EPOCH, env.managers.assignReplicasToDirs(new AssignReplicasToDirsRequest(1,
                epoch1 - 1, Map.of(p0, DIR_B))).error().error());
        assertEquals(Errors.BROKER_ID_NOT_REGISTERED, env.managers.assignReplicasToDirs(
                new AssignReplicasToDirsRequest(9, 0, Map.of(p0, DIR_B))).error().error());
        TopicIdPartition unknownTopic = new TopicIdPartition(UUID.randomUUID(), 0);
        TopicIdPartition unknownPartition = new TopicIdPartition(topic, 7);
        TopicIdPartition notAReplica = new TopicIdPartition(topic, 1);
        TopicIdPartition unknownDirectory = p0;
        ControllerResult<Map<TopicIdPartition, Errors>> result = env.commit(env.managers.assignReplicasToDirs(
                new AssignReplicasToDirsRequest(1, epoch1, Map.of(unknownTopic, DIR_B, unknownPartition, DIR_B,
                        notAReplica, DIR_B, unknownDirectory, new UUID(9, 9)))));
        assertEquals(Map.of(unknownTopic, Errors.UNKNOWN_TOPIC_ID, unknownPartition, Errors.UNKNOWN_TOPIC_OR_PARTITION,
                notAReplica, Errors.NOT_LEADER_OR_FOLLOWER, unknownDirectory, Errors.LOG_DIR_NOT_FOUND),
                result.response());
        assertEquals(before, env.nextOffset);
        assertEquals(List.of(), partition(p0).directories());
    }

    private BrokerHeartbeatRequest offline(int brokerId, long epoch, OfflineLogDir dir) {
        return new BrokerHeartbeatRequest(brokerId, epoch, env.nextOffset, false, false, List.of(dir));
    }

    private PartitionRegistration partition(TopicIdPartition id) {
        return env.image.topics().partition(id.topicId(), id.partition());
    }

    private UUID createTopic(String name, Map<Integer, List<Integer>> assignments) {
        return env.commit(env.managers.createTopic(new CreateTopicRequest(name, -1, -1, assignments, Map.of())))
                .response().topicId();
    }
}
