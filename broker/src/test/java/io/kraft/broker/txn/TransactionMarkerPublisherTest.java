package io.kraft.broker.txn;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.controller.TransactionMarkersWritten;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.TopicPartitions;
import io.kraft.proto.metadata.TopicRecord;
import io.kraft.proto.metadata.TransactionRecord;
import io.kraft.proto.metadata.TransactionState;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A leader's marker publisher against a recording writer and controller: it writes the markers of the partitions it
 * leads with the deciding controller epoch, retries what failed, takes over a partition whose leadership moves to it,
 * repeats its report, and stops once the image shows the transaction complete.
 */
class TransactionMarkerPublisherTest {
    private static final int BROKER = 1;
    private static final UUID TOPIC = new UUID(5, 6);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private record Write(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit,
                         List<TopicPartition> partitions) {
    }

    private final List<Write> writes = Collections.synchronizedList(new ArrayList<>());
    private final List<TransactionMarkersWritten> reports = Collections.synchronizedList(new ArrayList<>());
    private final AtomicReference<Errors> writeError = new AtomicReference<>(Errors.NONE);
    private MetadataImage image = MetadataImage.EMPTY;
    private long offset;
    private TransactionMarkerPublisher publisher;
    private final AtomicInteger clockReads = new AtomicInteger();

    @AfterEach
    void close() {
        if (publisher != null) {
            publisher.close();
        }
    }

    private void start() {
        publisher = new TransactionMarkerPublisher(BROKER, () -> 7L, report -> {
            reports.add(report);
            return CompletableFuture.completedFuture(null);
        }, (producerId, epoch, coordinatorEpoch, commit, partitions) -> {
            writes.add(new Write(producerId, epoch, coordinatorEpoch, commit, partitions));
            Map<TopicPartition, Errors> result = new LinkedHashMap<>();
            partitions.forEach(p -> result.put(p, writeError.get()));
            return CompletableFuture.completedFuture(result);
        }, 20, 200, () -> {
            clockReads.incrementAndGet();
            return System.currentTimeMillis();
        });
    }

    private void publish(int epoch, MetadataRecord... records) {
        MetadataDelta delta = new MetadataDelta(image);
        for (MetadataRecord record : records) {
            delta.replay(record, ++offset, epoch);
        }
        image = delta.apply();
        publisher.publish(delta, image);
    }

    private static MetadataRecord partition(int id, int leader) {
        return MetadataRecords.of(PartitionRecord.newBuilder().setTopicId(Uuids.toProto(TOPIC)).setPartitionId(id)
                .addReplicas(1).addReplicas(2).addIsr(1).addIsr(2).setLeader(leader).setLeaderEpoch(1).build());
    }

    private static MetadataRecord txn(TransactionState state, int... partitions) {
        TransactionRecord.Builder record = TransactionRecord.newBuilder().setTransactionalId("t").setProducerId(42)
                .setProducerEpoch(3).setPreviousProducerId(-1).setPreviousProducerEpoch(-1).setTimeoutMs(60_000)
                .setState(state).setStartTimeMs(1).setUpdateTimeMs(2);
        if (partitions.length > 0) {
            TopicPartitions.Builder added = TopicPartitions.newBuilder().setTopicId(Uuids.toProto(TOPIC));
            for (int p : partitions) {
                added.addPartitions(p);
            }
            record.addAddedPartitions(added);
        }
        return MetadataRecords.of(record.build());
    }

    private Set<TopicIdPartition> lastReported() {
        synchronized (reports) {
            return reports.isEmpty() ? Set.of() : new HashSet<>(reports.get(reports.size() - 1).partitions());
        }
    }

    @Test
    void anIdlePublisherDoesNotWakeUp() throws InterruptedException {
        start();
        publish(1, MetadataRecords.of(TopicRecord.newBuilder().setName("t").setTopicId(Uuids.toProto(TOPIC)).build()),
                partition(0, BROKER));
        Thread.sleep(200); // ten retry periods
        int idleReads = clockReads.get();
        assertTrue(idleReads <= 1, "no transaction pending, yet the publisher looked " + idleReads + " times");
    }

    @Test
    void writesItsPartitionsThenTakesOverAMovedOneAndStopsOnceComplete() {
        start();
        publish(4, MetadataRecords.of(TopicRecord.newBuilder().setName("t").setTopicId(Uuids.toProto(TOPIC)).build()),
                partition(0, BROKER), partition(1, 2), txn(TransactionState.TRANSACTION_STATE_ONGOING, 0, 1));
        assertTrue(writes.isEmpty(), "no markers for an open transaction");
        publish(9, txn(TransactionState.TRANSACTION_STATE_PREPARE_COMMIT));
        await().atMost(WAIT).until(() -> lastReported().equals(Set.of(new TopicIdPartition(TOPIC, 0))));
        Write first = writes.get(0);
        assertEquals(new Write(42, (short) 3, 9, true, List.of(new TopicPartition("t", 0))), first,
                "the marker carries the epoch of the controller that decided the transaction");
        TransactionMarkersWritten report = reports.get(0);
        assertEquals(BROKER, report.brokerId());
        assertEquals(7L, report.brokerEpoch());
        assertTrue(report.commit());

        // Partition 1's leadership moves here: its marker is written too, and the report names both.
        publish(9, MetadataRecords.of(PartitionChangeRecord.newBuilder().setTopicId(Uuids.toProto(TOPIC))
                .setPartitionId(1).setLeader(BROKER).build()));
        await().atMost(WAIT).until(() -> lastReported().equals(Set.of(new TopicIdPartition(TOPIC, 0),
                new TopicIdPartition(TOPIC, 1))));
        // The report repeats while the transaction is not complete (a new controller may not have heard it).
        int reportsSoFar = reports.size();
        await().atMost(WAIT).until(() -> reports.size() > reportsSoFar);
        assertEquals(2, writes.size(), "each partition written once: " + writes);

        publish(9, txn(TransactionState.TRANSACTION_STATE_COMPLETE_COMMIT));
        int settled = reports.size();
        // Reports stop once the image shows the transaction complete (one may have been on its way).
        await().during(Duration.ofMillis(600)).atMost(WAIT).until(() -> reports.size() <= settled + 1);
        assertEquals(2, writes.size());
    }

    @Test
    void aFailedWriteIsRetriedAndOnlyWrittenPartitionsAreReported() {
        writeError.set(Errors.NOT_LEADER_OR_FOLLOWER);
        start();
        publish(4, MetadataRecords.of(TopicRecord.newBuilder().setName("t").setTopicId(Uuids.toProto(TOPIC)).build()),
                partition(0, BROKER), partition(1, BROKER), txn(TransactionState.TRANSACTION_STATE_ONGOING, 0, 1),
                txn(TransactionState.TRANSACTION_STATE_PREPARE_ABORT));
        await().atMost(WAIT).until(() -> writes.size() >= 3);
        assertTrue(reports.isEmpty(), "nothing written, nothing reported");
        writeError.set(Errors.NONE);
        await().atMost(WAIT).until(() -> lastReported().size() == 2);
        assertTrue(reports.stream().noneMatch(TransactionMarkersWritten::commit));
    }
}
