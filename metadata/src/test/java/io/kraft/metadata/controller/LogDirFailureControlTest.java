package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A broker reports a failed log directory in its heartbeat (KIP-858): the controller records where those replicas
 * live, moves their leaderships and ISR memberships as fencing would for those replicas alone, and keeps them out
 * until the broker registers again with that directory online; the broker's other replicas carry on.
 */
class LogDirFailureControlTest {
    private static final UUID DIR_A = new UUID(1, 0xA);
    private static final UUID DIR_B = new UUID(1, 0xB);
    private static final UUID DIR_NEW = new UUID(1, 0xC);

    private final ControllerTestEnv env = new ControllerTestEnv();

    @Test
    void aFailedDirectoryMovesItsPartitionsAndTheBrokerKeepsServingTheOthers() {
        long epoch1 = env.startBrokerWithDirs(1, List.of(DIR_A, DIR_B));
        long epoch2 = env.startBrokerWithDirs(2, List.of(new UUID(2, 1)));
        env.startBrokerWithDirs(3, List.of(new UUID(3, 1)));
        UUID topic = createTopic("t", Map.of(0, List.of(1, 2, 3), 1, List.of(1, 2, 3), 2, List.of(2, 1, 3)));
        TopicIdPartition p0 = new TopicIdPartition(topic, 0);
        TopicIdPartition p2 = new TopicIdPartition(topic, 2);

        // Partitions 0 and 2 lived in A; partition 1 lives in B.
        ControllerResult<BrokerHeartbeatReply> reply = env.commit(env.managers.heartbeat(offline(1, epoch1,
                new OfflineLogDir(DIR_A, List.of(p0, p2))), env.nowMs));
        assertTrue(reply.isSuccess());
        assertFalse(reply.response().isFenced(), "the broker keeps serving from its other directory");
        assertEquals(new PartitionRegistration(List.of(1, 2, 3), List.of(2, 3), 2, 1, 1,
                List.of(DIR_A, PartitionRegistration.UNKNOWN_DIRECTORY, PartitionRegistration.UNKNOWN_DIRECTORY)),
                partition(topic, 0));
        assertEquals(List.of(2, 3), partition(topic, 2).isr());
        assertEquals(2, partition(topic, 2).leader());
        assertEquals(Optional.of(DIR_A), partition(topic, 2).directoryOf(1));
        assertEquals(new PartitionRegistration(List.of(1, 2, 3), List.of(1, 2, 3), 1, 0, 0), partition(topic, 1));
        assertEquals(List.of(DIR_B), env.image.cluster().broker(1).logDirs());

        // The report repeats with every heartbeat until the broker restarts: nothing more happens.
        long before = env.nextOffset;
        env.commit(env.managers.heartbeat(offline(1, epoch1, new OfflineLogDir(DIR_A, List.of(p0, p2))), env.nowMs));
        assertEquals(before, env.nextOffset);

        // The offline replica may not come back into the ISR, nor lead when the others leave.
        ControllerResult<PartitionRegistration> rejoin = env.managers.alterPartition(new AlterPartitionRequest(2,
                epoch2, topic, 0, 1, List.of(2, 3, 1), 1));
        assertEquals(Errors.INELIGIBLE_REPLICA, rejoin.error().error());
        assertTrue(rejoin.error().message().endsWith("its log directory " + DIR_A + " is offline"),
                rejoin.error().message());

        // Restarted with the directory back (its meta.properties keeps the id): the replica may rejoin.
        long epoch1Again = env.restartBroker(1, List.of(DIR_A, DIR_B));
        assertTrue(epoch1Again > epoch1);
        ControllerResult<PartitionRegistration> back = env.commit(env.managers.alterPartition(new AlterPartitionRequest(
                2, epoch2, topic, 0, 1, List.of(2, 3, 1), 1)));
        assertTrue(back.isSuccess(), String.valueOf(back.error()));
        assertEquals(List.of(2, 3, 1), partition(topic, 0).isr());
    }

    @Test
    void aSoleInSyncReplicaInAFailedDirectoryLeadsAgainOnlyWhenThatDirectoryIsBack() {
        long epoch1 = env.startBrokerWithDirs(1, List.of(DIR_A, DIR_B));
        env.startBrokerWithDirs(2, List.of(new UUID(2, 1)));
        UUID topic = createTopic("single", Map.of(0, List.of(1)));

        env.commit(env.managers.heartbeat(offline(1, epoch1,
                new OfflineLogDir(DIR_A, List.of(new TopicIdPartition(topic, 0)))), env.nowMs));
        assertEquals(PartitionRegistration.NO_LEADER, partition(topic, 0).leader());
        assertEquals(List.of(1), partition(topic, 0).isr(), "kept, so the replica can lead again without loss");

        // The disk was replaced: a new directory id, the old data is gone. The partition stays offline.
        env.restartBroker(1, List.of(DIR_B, DIR_NEW));
        assertEquals(PartitionRegistration.NO_LEADER, partition(topic, 0).leader());

        // The old directory is back after all: its replica leads again.
        env.restartBroker(1, List.of(DIR_A, DIR_B));
        assertEquals(1, partition(topic, 0).leader());
    }

    @Test
    void directoriesSurviveASnapshotAndReplay() {
        long epoch1 = env.startBrokerWithDirs(1, List.of(DIR_A, DIR_B));
        env.startBrokerWithDirs(2, List.of(new UUID(2, 1)));
        UUID topic = createTopic("t", Map.of(0, List.of(1, 2)));
        env.commit(env.managers.heartbeat(offline(1, epoch1,
                new OfflineLogDir(DIR_A, List.of(new TopicIdPartition(topic, 0)))), env.nowMs));

        MetadataDelta rebuilt = new MetadataDelta(MetadataImage.EMPTY);
        rebuilt.replayBatch(env.image.toRecords(), 0, 1);
        MetadataImage fromSnapshot = rebuilt.apply();
        assertEquals(env.image.topics().partition(topic, 0), fromSnapshot.topics().partition(topic, 0));
        assertEquals(env.image.cluster().broker(1), fromSnapshot.cluster().broker(1));
    }

    private BrokerHeartbeatRequest offline(int brokerId, long epoch, OfflineLogDir dir) {
        return new BrokerHeartbeatRequest(brokerId, epoch, env.nextOffset, false, false, List.of(dir));
    }

    private PartitionRegistration partition(UUID topic, int partition) {
        return env.image.topics().partition(topic, partition);
    }

    private UUID createTopic(String name, Map<Integer, List<Integer>> assignments) {
        return env.commit(env.managers.createTopic(new CreateTopicRequest(name, -1, -1, assignments, Map.of())))
                .response().topicId();
    }
}
