package io.kraft.broker.replica;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.StandaloneBroker;
import io.kraft.config.LogConfigs;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.io.FaultInjection;
import io.kraft.storage.log.TopicPartition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * AlterReplicaLogDirs on a broker with two log directories, beyond the happy path: a wish for a partition not hosted
 * yet places its log, a target directory that fails abandons the move and leaves the replica serving where it was, and
 * a deleted topic's move is dropped, and a completed move is reported to the controller (KIP-858).
 */
@ExtendWith(FaultInjectionEnabled.class)
class LogDirMoveReplicaManagerTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dataDir;

    private StandaloneBroker broker;
    private Path dirA;
    private Path dirB;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private ReplicaManager start() throws Exception {
        dirA = dataDir.resolve("a");
        dirB = dataDir.resolve("b");
        broker = new StandaloneBroker(dataDir, Map.of(LogConfigs.LOG_DIRS, dirA + "," + dirB));
        return broker.replicaManager();
    }

    @Test
    void aWishForAPartitionNotHostedYetPlacesItsLog() throws Exception {
        ReplicaManager rm = start();
        TopicPartition tp = new TopicPartition("later", 0);
        assertEquals(Map.of(tp, Errors.REPLICA_NOT_AVAILABLE), rm.alterReplicaLogDirs(Map.of(tp, dirB)));
        assertEquals(Map.of(tp, Errors.LOG_DIR_NOT_FOUND), rm.alterReplicaLogDirs(Map.of(tp, dataDir.resolve("c"))));
        broker.createTopic("later", 1, Map.of());
        assertTrue(Files.isDirectory(dirB.resolve("later-0")), "created where the wish said");
        assertEquals(Map.of(tp, Errors.NONE), rm.alterReplicaLogDirs(Map.of(tp, dirB)), "already there: nothing to do");
        assertEquals(Map.of(), rm.logDirMoves());
    }

    @Test
    void aFailingTargetDirectoryAbandonsTheMove() throws Exception {
        ReplicaManager rm = start();
        broker.createTopic("t", 1, Map.of());
        TopicPartition tp = new TopicPartition("t", 0);
        Path from = Files.isDirectory(dirA.resolve("t-0")) ? dirA : dirB;
        Path to = from.equals(dirA) ? dirB : dirA;
        assertEquals(Errors.NONE, produce(rm, tp, 10));
        Files.writeString(to.resolve(FaultInjection.TRIGGER_FILE), "EIO");
        Errors started = rm.alterReplicaLogDirs(Map.of(tp, to)).get(tp);
        assertTrue(started == Errors.NONE || started == Errors.KAFKA_STORAGE_ERROR, started.toString());
        await().atMost(WAIT).until(() -> rm.logDirMoves().isEmpty() && rm.offlineLogDirs().containsKey(to));
        assertEquals(Errors.NONE, produce(rm, tp, 1), "the replica keeps serving from " + from);
        assertEquals(11, rm.partition(tp).orElseThrow().logEndOffset());
        assertEquals(from, rm.partition(tp).orElseThrow().log().dir().getParent());
        assertEquals(Map.of(tp, Errors.KAFKA_STORAGE_ERROR), rm.alterReplicaLogDirs(Map.of(tp, to)));
    }

    @Test
    void aDeletedTopicsMoveIsDropped() throws Exception {
        ReplicaManager rm = start();
        java.util.UUID topicId = broker.createTopic("gone", 1, Map.of());
        TopicPartition tp = new TopicPartition("gone", 0);
        Path from = Files.isDirectory(dirA.resolve("gone-0")) ? dirA : dirB;
        Path to = from.equals(dirA) ? dirB : dirA;
        for (int i = 0; i < 20; i++) {
            produce(rm, tp, 10);
        }
        rm.alterReplicaLogDirs(Map.of(tp, to));
        broker.deleteTopic(topicId);
        await().atMost(WAIT).until(() -> rm.logDirMoves().isEmpty());
        try (var children = Files.list(to)) {
            assertTrue(children.noneMatch(p -> p.getFileName().toString().startsWith("gone-0")
                    && !p.getFileName().toString().endsWith("-delete")), "no log of the deleted topic is left");
        }
    }

    @Test
    void aCompletedMoveIsReportedToTheControllerUntilItIsRecorded() throws Exception {
        ReplicaManager rm = start();
        UUID topicId = broker.createTopic("reported", 1, Map.of());
        TopicPartition tp = new TopicPartition("reported", 0);
        Path to = Files.isDirectory(dirA.resolve("reported-0")) ? dirB : dirA;
        List<Map<TopicIdPartition, UUID>> sent = new CopyOnWriteArrayList<>();
        rm.directoryAssigner().setSender(directories -> {
            sent.add(directories);
            // The first attempt finds no controller; the retry is recorded.
            return sent.size() == 1 ? CompletableFuture.failedFuture(new IllegalStateException("no controller"))
                    : CompletableFuture.completedFuture(Map.of(new TopicIdPartition(topicId, 0), Errors.NONE));
        });
        produce(rm, tp, 10);
        assertEquals(Map.of(tp, Errors.NONE), rm.alterReplicaLogDirs(Map.of(tp, to)));
        await().atMost(WAIT).until(() -> sent.size() >= 2 && rm.directoryAssigner().pending().isEmpty());
        UUID toId = rm.onlineLogDirIds().get(to.equals(dirA) ? 0 : 1); // in log.dirs order
        assertEquals(List.of(Map.of(new TopicIdPartition(topicId, 0), toId)), List.copyOf(sent).subList(1, 2));
        assertEquals(2, sent.size(), "nothing more to report");
    }

    private static Errors produce(ReplicaManager rm, TopicPartition tp, int records) throws Exception {
        return rm.appendRecords(5_000, (short) 1, false, Map.of(tp, ReplicaManagerTest.batch(records)))
                .get(WAIT.toSeconds(), TimeUnit.SECONDS).get(tp).error();
    }
}
