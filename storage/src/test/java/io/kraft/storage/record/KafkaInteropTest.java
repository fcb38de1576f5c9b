package io.kraft.storage.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.utils.internals.ByteBufferOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Batches written by kafka-clients 4.4 read correctly here, and batches written here pass kafka-clients' checks. */
class KafkaInteropTest {
    private static final long BASE_OFFSET = 1_000L;
    private static final long PRODUCER_ID = 4_242L;
    private static final short PRODUCER_EPOCH = 7;
    private static final int BASE_SEQUENCE = 100;
    private static final int LEADER_EPOCH = 12;
    private static final int MAX_BATCH_BYTES = 8 * 1024 * 1024;

    private static Compression kafkaCompression(CompressionType type) {
        return Compression.of(org.apache.kafka.common.record.internal.CompressionType.forId(type.id())).build();
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void readsKafkaBuiltTransactionalBatch(CompressionType type) {
        List<SampleRecord> samples = SampleRecord.edgeCases();
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(1024), (byte) 2, kafkaCompression(type),
                org.apache.kafka.common.record.TimestampType.CREATE_TIME, BASE_OFFSET, RecordBatch.NO_TIMESTAMP,
                PRODUCER_ID, PRODUCER_EPOCH, BASE_SEQUENCE, true, LEADER_EPOCH);
        for (SampleRecord sample : samples) {
            builder.append(sample.timestampMs(), sample.key(), sample.value(), sample.kafkaHeaders());
        }
        ByteBuffer buffer = builder.build().buffer();

        BatchIterator batches = new BatchIterator(buffer, MAX_BATCH_BYTES);
        RecordBatch batch = batches.next();
        assertFalse(batches.hasNext());
        batch.validateRecords();
        assertEquals(type, batch.compressionType());
        assertEquals(BASE_OFFSET, batch.baseOffset());
        assertEquals(BASE_OFFSET + samples.size() - 1, batch.lastOffset());
        assertEquals(samples.size(), batch.recordCount());
        assertEquals(LEADER_EPOCH, batch.partitionLeaderEpoch());
        assertEquals(PRODUCER_ID, batch.producerId());
        assertEquals(PRODUCER_EPOCH, batch.producerEpoch());
        assertEquals(BASE_SEQUENCE, batch.baseSequence());
        assertEquals(BASE_SEQUENCE + samples.size() - 1, batch.lastSequence());
        assertTrue(batch.isTransactional());
        assertFalse(batch.isControl());
        assertEquals(TimestampType.CREATE_TIME, batch.timestampType());
        assertEquals(samples.stream().mapToLong(SampleRecord::timestampMs).max().getAsLong(), batch.maxTimestamp());

        List<Record> records = batch.records();
        assertEquals(samples.size(), records.size());
        for (int i = 0; i < samples.size(); i++) {
            Record record = records.get(i);
            assertEquals(BASE_OFFSET + i, record.offset());
            assertEquals(samples.get(i).timestampMs(), record.timestamp());
            assertEquals(BASE_SEQUENCE + i, record.sequence());
            samples.get(i).assertContent(record);
        }
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void kafkaReadsBatchBuiltHere(CompressionType type) {
        List<SampleRecord> samples = SampleRecord.edgeCases();
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(64), type, BASE_OFFSET)
                .partitionLeaderEpoch(LEADER_EPOCH)
                .producer(PRODUCER_ID, PRODUCER_EPOCH, BASE_SEQUENCE)
                .transactional(true);
        for (SampleRecord sample : samples) {
            builder.append(sample.timestampMs(), sample.key(), sample.value(), sample.headers());
        }
        ByteBuffer built = builder.build();
        RecordBatch.at(built).validateRecords();

        MutableRecordBatch batch = singleKafkaBatch(built);
        batch.ensureValid();
        assertEquals(type.id(), batch.compressionType().id);
        assertEquals(BASE_OFFSET, batch.baseOffset());
        assertEquals(BASE_OFFSET + samples.size() - 1, batch.lastOffset());
        assertEquals(samples.size(), batch.countOrNull());
        assertEquals(LEADER_EPOCH, batch.partitionLeaderEpoch());
        assertEquals(PRODUCER_ID, batch.producerId());
        assertEquals(PRODUCER_EPOCH, batch.producerEpoch());
        assertEquals(BASE_SEQUENCE, batch.baseSequence());
        assertTrue(batch.isTransactional());
        assertFalse(batch.isControlBatch());
        assertEquals(org.apache.kafka.common.record.TimestampType.CREATE_TIME, batch.timestampType());
        assertEquals(samples.stream().mapToLong(SampleRecord::timestampMs).max().getAsLong(), batch.maxTimestamp());
        assertEquals(OptionalLong.empty(), batch.deleteHorizonMs());

        int i = 0;
        for (org.apache.kafka.common.record.internal.Record record : batch) {
            record.ensureValid();
            assertEquals(BASE_OFFSET + i, record.offset());
            assertEquals(samples.get(i).timestampMs(), record.timestamp());
            assertEquals(BASE_SEQUENCE + i, record.sequence());
            samples.get(i).assertContent(record);
            i++;
        }
        assertEquals(samples.size(), i);
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void idempotentBatchesWithLogAppendTimeRoundTripBothWays(CompressionType type) {
        long appendTime = 1_800_000_000_000L;
        SampleRecord one = new SampleRecord(5L, SampleRecord.bytes("a"), SampleRecord.bytes("1"));
        SampleRecord two = new SampleRecord(9L, null, SampleRecord.bytes("2"));

        MemoryRecordsBuilder kafka = MemoryRecords.builder(ByteBuffer.allocate(256), (byte) 2, kafkaCompression(type),
                org.apache.kafka.common.record.TimestampType.LOG_APPEND_TIME, 0L, appendTime, PRODUCER_ID,
                PRODUCER_EPOCH, Integer.MAX_VALUE, false, LEADER_EPOCH);
        kafka.append(one.timestampMs(), one.key(), one.value());
        kafka.append(two.timestampMs(), two.key(), two.value());
        RecordBatch fromKafka = RecordBatch.at(kafka.build().buffer());
        fromKafka.validateRecords();
        assertEquals(TimestampType.LOG_APPEND_TIME, fromKafka.timestampType());
        assertFalse(fromKafka.isTransactional());
        List<Record> records = fromKafka.records();
        assertEquals(List.of(appendTime, appendTime), records.stream().map(Record::timestamp).toList());
        // Sequences wrap past Integer.MAX_VALUE to 0.
        assertEquals(List.of(Integer.MAX_VALUE, 0), records.stream().map(Record::sequence).toList());
        assertEquals(0, fromKafka.lastSequence());

        ByteBuffer ours = new RecordBatchBuilder(ByteBuffer.allocate(256), type, 0L)
                .producer(PRODUCER_ID, PRODUCER_EPOCH, Integer.MAX_VALUE)
                .logAppendTime(appendTime)
                .append(one.timestampMs(), one.key(), one.value())
                .append(two.timestampMs(), two.key(), two.value())
                .build();
        MutableRecordBatch kafkaView = singleKafkaBatch(ours);
        kafkaView.ensureValid();
        assertEquals(org.apache.kafka.common.record.TimestampType.LOG_APPEND_TIME, kafkaView.timestampType());
        assertEquals(appendTime, kafkaView.maxTimestamp());
        assertEquals(0, kafkaView.lastSequence());
        List<Long> kafkaTimestamps = new ArrayList<>();
        kafkaView.forEach(r -> kafkaTimestamps.add(r.timestamp()));
        assertEquals(List.of(appendTime, appendTime), kafkaTimestamps);
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void cleanerStyleBatchKeepsOffsetsRangeAndDeleteHorizonForKafka(CompressionType type) {
        long deleteHorizon = 1_750_000_000_000L;
        ByteBuffer ours = new RecordBatchBuilder(ByteBuffer.allocate(256), type, 500L)
                .deleteHorizonMs(deleteHorizon)
                .lastOffsetDelta(20)
                .appendWithOffset(503L, 1_700_000_000_000L, ByteBuffer.wrap(SampleRecord.bytes("k3")), null)
                .appendWithOffset(511L, 1_700_000_000_100L, ByteBuffer.wrap(SampleRecord.bytes("k11")),
                        ByteBuffer.wrap(SampleRecord.bytes("v11")))
                .build();
        RecordBatch here = RecordBatch.at(ours);
        here.validateRecords();
        assertEquals(deleteHorizon, here.deleteHorizonMs());

        MutableRecordBatch batch = singleKafkaBatch(ours);
        batch.ensureValid();
        assertEquals(500L, batch.baseOffset());
        assertEquals(520L, batch.lastOffset());
        assertEquals(2, batch.countOrNull());
        assertEquals(OptionalLong.of(deleteHorizon), batch.deleteHorizonMs());
        Iterator<org.apache.kafka.common.record.internal.Record> records = batch.iterator();
        org.apache.kafka.common.record.internal.Record first = records.next();
        assertEquals(503L, first.offset());
        assertEquals(1_700_000_000_000L, first.timestamp());
        assertFalse(first.hasValue());
        org.apache.kafka.common.record.internal.Record second = records.next();
        assertEquals(511L, second.offset());
        assertEquals(1_700_000_000_100L, second.timestamp());
        assertFalse(records.hasNext());
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void readsKafkaBatchWithDeleteHorizon(CompressionType type) {
        long deleteHorizon = 1_750_000_000_000L;
        MemoryRecordsBuilder kafka = new MemoryRecordsBuilder(new ByteBufferOutputStream(256), (byte) 2,
                kafkaCompression(type), org.apache.kafka.common.record.TimestampType.CREATE_TIME, 40L,
                RecordBatch.NO_TIMESTAMP, RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH,
                RecordBatch.NO_SEQUENCE, false, false, LEADER_EPOCH, Integer.MAX_VALUE, deleteHorizon);
        kafka.appendWithOffset(41L, 1_700_000_000_000L, SampleRecord.bytes("k"), null);
        RecordBatch batch = RecordBatch.at(kafka.build().buffer());
        batch.validateRecords();
        assertTrue(batch.hasDeleteHorizon());
        assertEquals(deleteHorizon, batch.deleteHorizonMs());
        Record record = batch.records().get(0);
        assertEquals(41L, record.offset());
        assertEquals(1_700_000_000_000L, record.timestamp());
        assertFalse(record.hasValue());
    }

    @Test
    void readsKafkaTransactionMarkers() {
        for (ControlRecordType type : ControlRecordType.values()) {
            var kafkaMarker = new org.apache.kafka.common.record.internal.EndTransactionMarker(
                    org.apache.kafka.common.record.internal.ControlRecordType.valueOf(type.name()), 31);
            MemoryRecords kafka = MemoryRecords.withEndTransactionMarker(77L, 1_700_000_000_000L, LEADER_EPOCH,
                    PRODUCER_ID, PRODUCER_EPOCH, kafkaMarker);
            RecordBatch batch = RecordBatch.at(kafka.buffer());
            batch.validateRecords();
            assertTrue(batch.isControl());
            assertTrue(batch.isTransactional());
            assertEquals(PRODUCER_ID, batch.producerId());
            assertEquals(new EndTransactionMarker(type, 31), EndTransactionMarker.fromBatch(batch));
            Record record = batch.records().get(0);
            assertEquals(77L, record.offset());
            assertEquals(type, ControlRecordType.fromKey(record.key()));
        }
    }

    @Test
    void kafkaReadsTransactionMarkersBuiltHere() {
        for (ControlRecordType type : ControlRecordType.values()) {
            ByteBuffer ours = new EndTransactionMarker(type, 31)
                    .toBatch(77L, LEADER_EPOCH, PRODUCER_ID, PRODUCER_EPOCH, 1_700_000_000_000L);
            RecordBatch.at(ours).validateRecords();
            MutableRecordBatch batch = singleKafkaBatch(ours);
            batch.ensureValid();
            assertTrue(batch.isControlBatch());
            assertTrue(batch.isTransactional());
            assertEquals(PRODUCER_ID, batch.producerId());
            assertEquals(PRODUCER_EPOCH, batch.producerEpoch());
            assertEquals(RecordBatch.NO_SEQUENCE, batch.baseSequence());
            assertEquals(LEADER_EPOCH, batch.partitionLeaderEpoch());
            org.apache.kafka.common.record.internal.Record record = batch.iterator().next();
            assertEquals(77L, record.offset());
            assertEquals(1_700_000_000_000L, record.timestamp());
            assertEquals(type.name(), org.apache.kafka.common.record.internal.ControlRecordType.parse(record.key()).name());
            var marker = org.apache.kafka.common.record.internal.EndTransactionMarker.deserialize(record);
            assertEquals(31, marker.coordinatorEpoch());
            assertEquals(type.name(), marker.controlType().name());
            assertArrayEquals(SampleRecord.toArray(marker.serializeValue()),
                    SampleRecord.toArray(new EndTransactionMarker(type, 31).value()));
        }
    }

    @Test
    void iteratesConcatenatedKafkaBatchesOfMixedCodecs() {
        ByteBuffer all = ByteBuffer.allocate(64 * 1024);
        long offset = 0;
        for (CompressionType type : CompressionType.values()) {
            MemoryRecordsBuilder builder = MemoryRecords.builder(all, kafkaCompression(type),
                    org.apache.kafka.common.record.TimestampType.CREATE_TIME, offset);
            for (int i = 0; i < 3; i++) {
                builder.append(10L + i, SampleRecord.bytes(type + "-" + i), SampleRecord.bytes("v" + i));
            }
            builder.build();
            offset += 3;
        }
        all.flip();
        List<String> keys = new ArrayList<>();
        long expectedOffset = 0;
        for (RecordBatch batch : BatchIterator.batches(all, MAX_BATCH_BYTES)) {
            batch.validateRecords();
            for (Record record : batch.records()) {
                assertEquals(expectedOffset++, record.offset());
                keys.add(new String(SampleRecord.toArray(record.key())));
            }
        }
        assertEquals(15, keys.size());
        assertEquals("ZSTD-2", keys.get(14));
    }

    private static MutableRecordBatch singleKafkaBatch(ByteBuffer buffer) {
        Iterator<MutableRecordBatch> batches = MemoryRecords.readableRecords(buffer.duplicate()).batches().iterator();
        MutableRecordBatch batch = batches.next();
        assertFalse(batches.hasNext());
        return batch;
    }
}
