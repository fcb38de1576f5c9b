package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.bytes;
import static io.kraft.storage.log.TestBatches.parse;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.record.CompressionType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A topic's compression.type on the leader: batches in another codec are re-written in the topic's
 * (records, headers, timestamps and producer fields kept, kafka-clients reads them), matching or
 * {@code producer} batches reach the disk byte for byte.
 */
class TopicCompressionTest {
    private static final long PRODUCER_ID = 77;
    private static final short EPOCH = 2;
    private static final int BASE_SEQUENCE = 0;
    private static final long NOW = 2_000_000L;
    private static final List<CompressionType> CODECS = List.of(CompressionType.values());

    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path dir;

    private static LogConfig.Builder small() {
        return LogConfig.builder().maxIndexBytes(4096);
    }

    static Stream<Arguments> codecPairs() {
        List<Arguments> pairs = new ArrayList<>();
        for (CompressionType producer : CODECS) {
            for (CompressionType topic : CODECS) {
                pairs.add(Arguments.of(producer, topic));
            }
        }
        return pairs.stream();
    }

    private static Compression kafka(CompressionType type) {
        return Compression.of(org.apache.kafka.common.record.internal.CompressionType.forId(type.id())).build();
    }

    private static String topicName(CompressionType type) {
        return type == CompressionType.NONE ? "uncompressed" : type.configName();
    }

    private static SimpleRecord[] sampleRecords() {
        SimpleRecord[] records = new SimpleRecord[12];
        for (int i = 0; i < records.length; i++) {
            Header[] headers = i % 3 == 0 ? new Header[0] : new Header[] {
                new RecordHeader("trace", ("t" + i).getBytes(StandardCharsets.UTF_8)),
                new RecordHeader("empty", i % 2 == 0 ? null : new byte[0])};
            byte[] key = i == 4 ? null : ("key-" + i).getBytes(StandardCharsets.UTF_8);
            byte[] value = i == 7 ? null : ("value-" + i + "-" + "x".repeat(i * 10)).getBytes(StandardCharsets.UTF_8);
            // Timestamps out of order within the batch, as a producer's can be.
            records[i] = new SimpleRecord(NOW - 500 + (i * 37) % 100, key, value, headers);
        }
        return records;
    }

    private static ByteBuffer producerBatch(CompressionType codec) {
        return TestBatches.copy(MemoryRecords.withIdempotentRecords(kafka(codec), PRODUCER_ID, EPOCH, BASE_SEQUENCE,
                sampleRecords()).buffer());
    }

    @ParameterizedTest(name = "{0} producer, {1} topic")
    @MethodSource("codecPairs")
    void batchesAreStoredInTheTopicsCodecWithEverythingElseKept(CompressionType producer, CompressionType topic)
            throws Exception {
        LogConfig config = small().compressionType(topicName(topic)).build();
        try (Log log = Log.open(dir, config)) {
            log.append(TestBatches.batch(3, NOW), 0, NOW);
            ByteBuffer sent = producerBatch(producer);
            AppendInfo info = log.append(sent, 5, NOW);
            assertEquals(3, info.firstOffset());
            assertEquals(14, info.lastOffset());
            assertEquals(15, log.logEndOffset());

            ByteBuffer stored = log.read(3, Integer.MAX_VALUE, false).records().readFully();
            assertEquals(info.sizeBytes(), stored.remaining());
            List<MutableRecordBatch> batches = parse(stored);
            assertEquals(1, batches.size());
            MutableRecordBatch batch = batches.get(0);
            batch.ensureValid();
            assertEquals(topic.id(), batch.compressionType().id);
            assertEquals(PRODUCER_ID, batch.producerId());
            assertEquals(EPOCH, batch.producerEpoch());
            assertEquals(BASE_SEQUENCE, batch.baseSequence());
            assertEquals(BASE_SEQUENCE + 11, batch.lastSequence());
            assertEquals(5, batch.partitionLeaderEpoch());
            assertEquals(TimestampType.CREATE_TIME, batch.timestampType());
            assertEquals(3, batch.baseOffset());
            assertEquals(14, batch.lastOffset());
            assertFalse(batch.isTransactional());

            SimpleRecord[] expected = sampleRecords();
            List<Record> records = new ArrayList<>();
            batch.forEach(records::add);
            assertEquals(expected.length, records.size());
            long maxTimestamp = Long.MIN_VALUE;
            for (int i = 0; i < expected.length; i++) {
                Record record = records.get(i);
                assertEquals(3 + i, record.offset());
                assertEquals(expected[i].timestamp(), record.timestamp());
                assertEquals(expected[i].key(), record.key());
                assertEquals(expected[i].value(), record.value());
                assertArrayEquals(expected[i].headers(), record.headers());
                maxTimestamp = Math.max(maxTimestamp, record.timestamp());
            }
            assertEquals(maxTimestamp, batch.maxTimestamp());
            assertEquals(maxTimestamp, info.maxTimestampMs());
            if (producer == topic) {
                assertArrayEquals(bytes(sent), bytes(stored), "a batch already in the topic's codec is written as sent");
            }
        }
    }

    @Test
    void theProducerSettingKeepsEveryCodecByteForByte() throws Exception {
        try (Log log = Log.open(dir, small().compressionType("producer").build())) {
            for (CompressionType codec : CODECS) {
                ByteBuffer sent = producerBatch(codec).duplicate();
                long first = log.logEndOffset();
                AppendInfo info = log.append(sent, 1, NOW);
                // The append rewrote base offset and leader epoch in the caller's buffer itself: no copy was made.
                assertEquals(first, sent.getLong(sent.position()));
                assertArrayEquals(bytes(sent), bytes(log.read(first, Integer.MAX_VALUE, false).records().readFully()));
                assertEquals(sent.remaining(), info.sizeBytes());
                assertEquals(BASE_SEQUENCE + 11, log.producerState(PRODUCER_ID).orElseThrow().lastSequence());
                log.truncateFullyAndStartAt(log.logEndOffset());
            }
        }
    }

    @Test
    void aRetryOfAConvertedBatchIsStillADuplicate() throws Exception {
        try (Log log = Log.open(dir, small().compressionType("zstd").build())) {
            AppendInfo first = log.append(producerBatch(CompressionType.GZIP), 0, NOW);
            AppendInfo retry = log.append(producerBatch(CompressionType.GZIP), 0, NOW);
            assertTrue(retry.duplicate());
            assertEquals(first.firstOffset(), retry.firstOffset());
            assertEquals(first.lastOffset(), retry.lastOffset());
            assertEquals(12, log.logEndOffset());
        }
    }

    @Test
    void aBatchThatGrowsPastMaxMessageBytesWhenConvertedIsRefused() throws Exception {
        SimpleRecord[] zeros = new SimpleRecord[50];
        for (int i = 0; i < zeros.length; i++) {
            zeros[i] = new SimpleRecord(NOW, null, new byte[200]);
        }
        ByteBuffer compressed = TestBatches.copy(MemoryRecords.withRecords(Compression.gzip().build(), zeros).buffer());
        assertTrue(compressed.remaining() < 1000);
        LogConfig config = small().compressionType("uncompressed").maxMessageBytes(1000).build();
        try (Log log = Log.open(dir, config)) {
            RecordTooLargeException refused = assertThrows(RecordTooLargeException.class,
                    () -> log.append(compressed, 0, NOW));
            assertTrue(refused.getMessage().contains("after conversion"), refused.getMessage());
            assertEquals(0, log.logEndOffset());
            assertEquals(0, log.sizeInBytes());
        }
    }
}
