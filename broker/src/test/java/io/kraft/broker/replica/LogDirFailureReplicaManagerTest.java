package io.kraft.broker.replica;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.StandaloneBroker;
import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.broker.metrics.MetricName;
import io.kraft.config.LogConfigs;
import io.kraft.metadata.controller.OfflineLogDir;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.storage.MetaProperties;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.io.FaultInjection;
import io.kraft.storage.log.LogManager;
import io.kraft.storage.log.TopicPartition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker with two log directories loses one to a failing disk: that directory's partitions stop being served here
 * (KAFKA_STORAGE_ERROR) and are reported for the controller, the other directory's go on, and once the disk is back
 * a restart finds every acknowledged record. Losing the last directory asks for the broker to stop.
 */
@ExtendWith(FaultInjectionEnabled.class)
class LogDirFailureReplicaManagerTest {
    private static final Duration WAIT = Duration.ofSeconds(15);

    @TempDir
    Path dataDir;

    private StandaloneBroker broker;
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final KafkaMetrics metrics = KafkaMetrics.withoutJmx();
    private PartitionMetrics partitionMetrics;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
        metrics.close();
    }

    @Test
    void aFailedDirectoryGoesOfflineAndTheOtherKeepsServing() throws Exception {
        Path dirA = dataDir.resolve("a");
        Path dirB = dataDir.resolve("b");
        ReplicaManager rm = start(dirA, dirB);
        UUID topicId = broker.createTopic("t", 4, Map.of());
        Map<TopicPartition, Long> acknowledged = new HashMap<>();
        for (int p = 0; p < 4; p++) {
            acknowledged.put(tp(p), produce(rm, tp(p), 5).baseOffset() + 5);
        }
        List<TopicPartition> inA = partitionsIn(dirA);
        List<TopicPartition> inB = partitionsIn(dirB);
        assertEquals(2, inA.size(), "new partitions spread over both directories");
        partitionMetrics.reconcile();
        assertTrue(inA.stream().allMatch(tp -> metrics.contains(logSize(tp))), "metrics of hosted partitions");

        Files.writeString(dirA.resolve(FaultInjection.TRIGGER_FILE), "EIO");
        PartitionProduceResult failed = produce(rm, inA.get(0), 1);
        assertEquals(Errors.KAFKA_STORAGE_ERROR, failed.error());
        await().atMost(WAIT).until(() -> events.contains("offline " + dirA));

        // Every partition of the failed directory now answers KAFKA_STORAGE_ERROR; the others are served.
        for (TopicPartition tp : inA) {
            assertEquals(Errors.KAFKA_STORAGE_ERROR, produce(rm, tp, 1).error());
        }
        for (TopicPartition tp : inB) {
            PartitionProduceResult ok = produce(rm, tp, 2);
            assertEquals(Errors.NONE, ok.error());
            acknowledged.put(tp, ok.baseOffset() + 2);
        }
        assertEquals(Set.copyOf(inA), rm.offlinePartitions());
        assertTrue(inA.stream().noneMatch(tp -> metrics.contains(logSize(tp))), "no metrics of a failed dir's logs");
        assertTrue(inB.stream().allMatch(tp -> metrics.contains(logSize(tp))), "the other dir's partitions keep theirs");
        assertEquals(List.of(pathDerivedId(dirB)), rm.onlineLogDirIds(),
                "an unformatted directory's id comes from its path");
        List<OfflineLogDir> reports = rm.offlineLogDirReports();
        assertEquals(1, reports.size());
        assertEquals(Set.copyOf(ids(topicId, inA)), Set.copyOf(reports.get(0).partitions()));
        assertFalse(Files.exists(dirA.resolve(LogManager.CLEAN_SHUTDOWN_FILE)));

        // The last directory fails too: nothing can be served, so the broker asks to be stopped.
        Files.writeString(dirB.resolve(FaultInjection.TRIGGER_FILE), "ENOSPC");
        assertEquals(Errors.KAFKA_STORAGE_ERROR, produce(rm, inB.get(0), 1).error());
        await().atMost(WAIT).until(() -> events.stream().anyMatch(e -> e.startsWith("all ")));
        broker.close();
        broker = null;
        assertFalse(Files.exists(dirB.resolve(LogManager.CLEAN_SHUTDOWN_FILE)), "never marked clean");

        // The disks are back: everything acknowledged is there, and the logs take writes again.
        Files.delete(dirA.resolve(FaultInjection.TRIGGER_FILE));
        Files.delete(dirB.resolve(FaultInjection.TRIGGER_FILE));
        rm = start(dirA, dirB);
        broker.createTopic("t", topicId, 4, Map.of(), List.of(StandaloneBroker.BROKER_ID),
                List.of(StandaloneBroker.BROKER_ID));
        for (Map.Entry<TopicPartition, Long> entry : acknowledged.entrySet()) {
            assertEquals(entry.getValue(), rm.partition(entry.getKey()).orElseThrow().logEndOffset(),
                    entry.getKey() + " kept every acknowledged record and nothing else");
            assertEquals(Errors.NONE, produce(rm, entry.getKey(), 1).error());
        }
    }

    @Test
    void aFormattedDirectoryIsKnownByTheIdItsMetaPropertiesGives() throws Exception {
        Path dirA = dataDir.resolve("a");
        Path dirB = dataDir.resolve("b");
        String clusterId = MetaProperties.randomUuid();
        MetaProperties identityA = MetaProperties.forNewDirectory(clusterId, StandaloneBroker.BROKER_ID);
        MetaProperties identityB = MetaProperties.forNewDirectory(clusterId, StandaloneBroker.BROKER_ID);
        identityA.write(dirA);
        identityB.write(dirB);
        ReplicaManager rm = start(dirA, dirB);
        // The controller compares these with the ids a replaced disk registers, so they must be directory.id's.
        assertEquals(List.of(identityA.directoryUuid(), identityB.directoryUuid()), rm.onlineLogDirIds());
    }

    private ReplicaManager start(Path dirA, Path dirB) throws Exception {
        broker = new StandaloneBroker(dataDir, Map.of(LogConfigs.LOG_DIRS, dirA + "," + dirB));
        ReplicaManager rm = broker.replicaManager();
        partitionMetrics = new PartitionMetrics(metrics, rm::partitions, 1);
        rm.setLogDirListener(new LogDirListener() {
            @Override
            public void logDirOffline(Path dir) {
                partitionMetrics.reconcile(); // as the broker does
                events.add("offline " + dir);
            }

            @Override
            public void allLogDirsOffline(String reason) {
                events.add("all " + reason);
            }
        });
        return rm;
    }

    private static PartitionProduceResult produce(ReplicaManager rm, TopicPartition tp, int records) throws Exception {
        return rm.appendRecords(5_000, (short) 1, false, Map.of(tp, ReplicaManagerTest.batch(records)))
                .get(WAIT.toSeconds(), TimeUnit.SECONDS).get(tp);
    }

    private static MetricName logSize(TopicPartition tp) {
        return MetricName.of("kafka.log", "Log", "Size").tagged("topic", tp.topic())
                .tagged("partition", Integer.toString(tp.partition()));
    }

    private static TopicPartition tp(int partition) {
        return new TopicPartition("t", partition);
    }

    private static List<TopicPartition> partitionsIn(Path dir) throws Exception {
        List<TopicPartition> found = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            if (Files.isDirectory(dir.resolve("t-" + p))) {
                found.add(tp(p));
            }
        }
        return found;
    }

    private static List<TopicIdPartition> ids(UUID topicId, List<TopicPartition> partitions) {
        return partitions.stream().map(tp -> new TopicIdPartition(topicId, tp.partition())).toList();
    }

    private static UUID pathDerivedId(Path dir) {
        return UUID.nameUUIDFromBytes(dir.toAbsolutePath().normalize().toString().getBytes());
    }
}
