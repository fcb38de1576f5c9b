package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.handler.StandaloneBroker;
import io.kraft.storage.log.TopicPartition;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplicaManagerTest {
    @TempDir
    Path logDir;

    private StandaloneBroker broker;

    @BeforeEach
    void start() throws Exception {
        broker = new StandaloneBroker(logDir, Map.of());
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    static ByteBuffer batch(int records) {
        SimpleRecord[] simple = new SimpleRecord[records];
        for (int i = 0; i < records; i++) {
            simple[i] = new SimpleRecord(1000L + i, ("k" + i).getBytes(), ("v" + i).getBytes());
        }
        return MemoryRecords.withRecords(Compression.NONE, simple).buffer();
    }

    @Test
    void aWaitingFetchCompletesWhenRecordsAreAppended() throws Exception {
        broker.createTopic("t", 1, Map.of());
        ReplicaManager rm = broker.replicaManager();
        TopicPartition tp = new TopicPartition("t", 0);
        LinkedHashMap<TopicPartition, FetchPartitionRequest> requests = new LinkedHashMap<>();
        requests.put(tp, new FetchPartitionRequest(0, -1, -1, 1 << 20));
        CompletableFuture<LinkedHashMap<TopicPartition, PartitionRead>> fetch =
                rm.fetchMessages(new FetchParams(-1, 60_000, 1, 1 << 20), requests);
        assertFalse(fetch.isDone());
        assertEquals(1, rm.delayedFetchCount());
        Map<TopicPartition, PartitionProduceResult> produced = rm.appendRecords(1000, (short) -1, false,
                Map.of(tp, batch(3))).get(10, TimeUnit.SECONDS);
        assertEquals(ErrorCode.NONE, produced.get(tp).error());
        PartitionRead read = fetch.get(10, TimeUnit.SECONDS).get(tp);
        assertEquals(ErrorCode.NONE, read.error());
        assertTrue(read.sizeBytes() > 0);
        assertEquals(3, read.highWatermark());
    }
}
