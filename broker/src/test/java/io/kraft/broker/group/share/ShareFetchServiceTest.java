package io.kraft.broker.group.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.ClientRecords;
import io.kraft.broker.StandaloneBroker;
import io.kraft.broker.group.share.ShareFetchService.AckBatch;
import io.kraft.broker.group.share.ShareFetchService.PartitionFetch;
import io.kraft.broker.group.share.SharePartition.AcquiredRange;
import io.kraft.broker.group.share.state.ShareStatePersister;
import io.kraft.storage.errors.Errors;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partition leader's share fetch against a real log: reads, acquisition, acknowledgements, a leader change that
 * resumes from the written state, and a failed state write.
 */
class ShareFetchServiceTest {

    /** The share coordinator's contract, kept in a map; writes fail while {@code failWrites} is set. */
    private static final class MapPersister implements ShareStatePersister {
        final Map<SharePartitionKey, SharePartition.Snapshot> states = new ConcurrentHashMap<>();
        volatile Errors failWrites = Errors.NONE;

        @Override
        public CompletableFuture<ReadResult> read(SharePartitionKey key, int leaderEpoch) {
            return CompletableFuture.completedFuture(new ReadResult(Errors.NONE, states.get(key)));
        }

        @Override
        public CompletableFuture<Errors> write(SharePartitionKey key, int leaderEpoch,
                                               SharePartition.Snapshot snapshot) {
            if (failWrites == Errors.NONE) {
                states.put(key, snapshot);
            }
            return CompletableFuture.completedFuture(failWrites);
        }
    }

    @Test
    void acquiresWhatItReadsAndResumesFromItsWrittenStateAfterALeaderChange(@TempDir Path dir) throws Exception {
        try (StandaloneBroker broker = new StandaloneBroker(dir, Map.of())) {
            UUID topic = broker.createTopic("jobs", 1, Map.of());
            try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(broker.bootstrapServers(), Map.of())) {
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>("jobs", 0, null, new byte[] {(byte) i})).get();
                }
            }
            AtomicLong now = new AtomicLong(1_000);
            MapPersister persister = new MapPersister();
            ShareFetchService service = new ShareFetchService(broker.replicaManager(), broker::image,
                    ShareGroupConfig.fromProperties(Map.of(ShareGroupConfig.AUTO_OFFSET_RESET, "earliest")),
                    persister, now::get);
            SharePartitionKey key = new SharePartitionKey("g", topic, 0);

            PartitionFetch first = service.fetch(key, "a", 1 << 20, 4);
            assertEquals(Errors.NONE, first.error());
            assertEquals(List.of(new AcquiredRange(0, 3, 1)), first.acquired());
            assertTrue(first.records().sizeBytes() > 0);
            assertEquals(List.of(new AcquiredRange(4, 9, 1)), service.fetch(key, "b", 1 << 20, 500).acquired());
            assertEquals(List.of(), service.fetch(key, "c", 1 << 20, 500).acquired());

            assertEquals(Errors.NONE,
                    service.acknowledge(key, "a", List.of(new AckBatch(0, 3, List.of((byte) 1)))).join());
            assertEquals(Errors.INVALID_RECORD_STATE,
                    service.acknowledge(key, "a", List.of(new AckBatch(4, 4, List.of((byte) 1)))).join());
            assertEquals(Errors.INVALID_REQUEST,
                    service.acknowledge(key, "b", List.of(new AckBatch(4, 4, List.of((byte) 9)))).join());
            assertEquals(4, service.snapshot(key).startOffset());
            assertEquals(4, persister.states.get(key).startOffset());

            now.addAndGet(ShareGroupConfig.defaults().recordLockDurationMs());
            assertEquals(List.of(new AcquiredRange(4, 9, 2)), service.fetch(key, "c", 1 << 20, 500).acquired());

            // The new leadership reads the written state: 0-3 stay acknowledged, 4-9 come a third time.
            broker.bumpLeaderEpoch(topic, 0);
            assertEquals(List.of(new AcquiredRange(4, 9, 3)), service.fetch(key, "c", 1 << 20, 500).acquired());

            // A write that fails is never a silent success: the acknowledgement fails, and the records come again.
            persister.failWrites = Errors.NOT_COORDINATOR;
            assertEquals(Errors.COORDINATOR_NOT_AVAILABLE,
                    service.acknowledge(key, "c", List.of(new AckBatch(4, 9, List.of((byte) 1)))).join());
            persister.failWrites = Errors.NONE;
            assertEquals(List.of(new AcquiredRange(4, 9, 4)), service.fetch(key, "d", 1 << 20, 500).acquired());

            assertEquals(Errors.UNKNOWN_TOPIC_ID,
                    service.fetch(new SharePartitionKey("g", new UUID(9, 9), 0), "a", 1 << 20, 500).error());
        }
    }
}
