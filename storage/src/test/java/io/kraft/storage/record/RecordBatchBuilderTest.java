package io.kraft.storage.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RecordBatchBuilderTest {
    private static final byte[] KEY = SampleRecord.bytes("key");
    private static final byte[] VALUE = SampleRecord.bytes("value");

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void roundTripsEdgeCaseRecordsAndHeaderFields(CompressionType type) {
        List<SampleRecord> samples = SampleRecord.edgeCases();
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(16), type, 42L)
                .partitionLeaderEpoch(3)
                .producer(9L, (short) 2, 0)
                .transactional(true);
        for (SampleRecord sample : samples) {
            builder.append(sample.timestampMs(), sample.key(), sample.value(), sample.headers());
        }
        assertEquals(samples.size(), builder.recordCount());
        RecordBatch batch = RecordBatch.at(builder.build());
        batch.validateRecords();
        assertEquals(type, batch.compressionType());
        assertEquals(42L, batch.baseOffset());
        assertEquals(3, batch.partitionLeaderEpoch());
        assertEquals(samples.get(0).timestampMs(), batch.baseTimestamp());
        assertEquals(RecordBatch.NO_TIMESTAMP, batch.deleteHorizonMs());
        List<Record> records = batch.records();
        for (int i = 0; i < samples.size(); i++) {
            assertEquals(42L + i, records.get(i).offset());
            assertEquals(samples.get(i).timestampMs(), records.get(i).timestamp());
            assertEquals(i, records.get(i).sequence());
            samples.get(i).assertContent(records.get(i));
        }
    }

    @Test
    void writesIntoTheCallersBufferAtItsPositionWhenItFits() {
        ByteBuffer buffer = ByteBuffer.allocate(1024);
        buffer.position(100);
        ByteBuffer batch = new RecordBatchBuilder(buffer, CompressionType.NONE, 0L).append(1L, KEY, VALUE).build();
        assertEquals(100 + batch.limit(), buffer.position());
        assertEquals(0, batch.position());
        assertEquals(batch, buffer.duplicate().flip().position(100));
        RecordBatch.at(batch).validate();
    }

    @Test
    void uncompressedRecordsAreViewsOfTheBatchMemory() {
        ByteBuffer batch = new RecordBatchBuilder(ByteBuffer.allocate(128), CompressionType.NONE, 0L)
                .append(1L, KEY, VALUE).build();
        Record record = RecordBatch.at(batch).records().get(0);
        int valueAt = batch.limit() - 1 - VALUE.length;
        batch.put(valueAt, (byte) 'V');
        assertEquals('V', record.value().get(0));
        assertTrue(record.value().isReadOnly());
    }

    @Test
    void keyAndValueBuffersAreCopiedWithoutMovingThem() {
        ByteBuffer key = ByteBuffer.wrap(SampleRecord.bytes("xxkeyxx")).position(2).limit(5);
        ByteBuffer value = ByteBuffer.allocateDirect(5).put(VALUE).flip();
        ByteBuffer batch = new RecordBatchBuilder(ByteBuffer.allocate(128), CompressionType.NONE, 0L)
                .append(1L, key, value).build();
        assertEquals(2, key.position());
        assertEquals(0, value.position());
        Record record = RecordBatch.at(batch).records().get(0);
        assertArrayEquals(KEY, SampleRecord.toArray(record.key()));
        assertArrayEquals(VALUE, SampleRecord.toArray(record.value()));
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void explicitOffsetsAndLastOffsetDeltaPreserveTheOriginalRange(CompressionType type) {
        ByteBuffer built = new RecordBatchBuilder(ByteBuffer.allocate(128), type, 100L)
                .lastOffsetDelta(9)
                .appendWithOffset(102L, 5L, ByteBuffer.wrap(KEY), null)
                .appendWithOffset(107L, 6L, null, ByteBuffer.wrap(VALUE))
                .build();
        RecordBatch batch = RecordBatch.at(built);
        batch.validateRecords();
        assertEquals(100L, batch.baseOffset());
        assertEquals(109L, batch.lastOffset());
        assertEquals(2, batch.recordCount());
        assertEquals(List.of(102L, 107L), batch.records().stream().map(Record::offset).toList());
    }

    @Test
    void appendRecordCopiesSurvivorsAtTheirOffsets() {
        ByteBuffer original = new RecordBatchBuilder(ByteBuffer.allocate(256), CompressionType.GZIP, 0L)
                .append(1L, KEY, VALUE, new Header("h", VALUE))
                .append(2L, SampleRecord.bytes("dropped"), VALUE)
                .append(3L, SampleRecord.bytes("kept"), null)
                .build();
        RecordBatch source = RecordBatch.at(original);
        RecordBatchBuilder cleaned = new RecordBatchBuilder(ByteBuffer.allocate(256), CompressionType.GZIP, 0L)
                .lastOffsetDelta(source.lastOffsetDelta());
        for (Record record : source.records()) {
            if (!new String(SampleRecord.toArray(record.key())).equals("dropped")) {
                cleaned.appendRecord(record);
            }
        }
        RecordBatch rebuilt = RecordBatch.at(cleaned.build());
        rebuilt.validateRecords();
        assertEquals(2L, rebuilt.lastOffset());
        List<Record> records = rebuilt.records();
        assertEquals(List.of(0L, 2L), records.stream().map(Record::offset).toList());
        assertEquals(List.of(1L, 3L), records.stream().map(Record::timestamp).toList());
        assertEquals(List.of(new Header("h", VALUE)), records.get(0).headers());
    }

    @Test
    void emptyBatchKeepsTheRangeAndDeleteHorizon() {
        ByteBuffer built = new RecordBatchBuilder(ByteBuffer.allocate(64), CompressionType.ZSTD, 10L)
                .producer(5L, (short) 1, 20)
                .deleteHorizonMs(12_345L)
                .lastOffsetDelta(4)
                .build();
        RecordBatch batch = RecordBatch.at(built);
        batch.validateRecords();
        assertEquals(RecordBatch.HEADER_SIZE, batch.sizeInBytes());
        assertEquals(0, batch.recordCount());
        assertEquals(14L, batch.lastOffset());
        assertEquals(24, batch.lastSequence());
        assertEquals(12_345L, batch.deleteHorizonMs());
        assertTrue(batch.records().isEmpty());
    }

    @Test
    void deleteHorizonBecomesTheBaseTimestamp() {
        RecordBatch batch = RecordBatch.at(new RecordBatchBuilder(ByteBuffer.allocate(64), CompressionType.NONE, 0L)
                .deleteHorizonMs(2_000L)
                .append(1_500L, KEY, null)
                .append(2_500L, KEY, null)
                .build());
        assertTrue(batch.hasDeleteHorizon());
        assertEquals(2_000L, batch.baseTimestamp());
        assertEquals(2_500L, batch.maxTimestamp());
        assertEquals(List.of(1_500L, 2_500L), batch.records().stream().map(Record::timestamp).toList());
    }

    @Test
    void controlFlagAndMarkersRoundTrip() {
        EndTransactionMarker marker = new EndTransactionMarker(ControlRecordType.ABORT, 17);
        RecordBatch batch = RecordBatch.at(marker.toBatch(300L, 4, 88L, (short) 3, 1_000L));
        batch.validateRecords();
        assertTrue(batch.isControl());
        assertTrue(batch.isTransactional());
        assertEquals(300L, batch.lastOffset());
        assertEquals(marker, EndTransactionMarker.fromBatch(batch));
        assertEquals(marker, EndTransactionMarker.fromRecord(batch.records().get(0)));
    }

    @Test
    void rejectsOffsetsThatDoNotIncrease() {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(64), CompressionType.NONE, 10L)
                .appendWithOffset(12L, 1L, null, null);
        IllegalArgumentException same = assertThrows(IllegalArgumentException.class,
                () -> builder.appendWithOffset(12L, 1L, null, null));
        assertTrue(same.getMessage().contains("offset 12 is not above the last appended offset (12)"), same.getMessage());
        RecordBatchBuilder fresh = new RecordBatchBuilder(ByteBuffer.allocate(64), CompressionType.NONE, 10L);
        IllegalArgumentException below = assertThrows(IllegalArgumentException.class,
                () -> fresh.appendWithOffset(9L, 1L, null, null));
        assertTrue(below.getMessage().contains("offset 9 is not above the base offset - 1 (9)"), below.getMessage());
        IllegalArgumentException far = assertThrows(IllegalArgumentException.class,
                () -> fresh.appendWithOffset(10L + Integer.MAX_VALUE + 1L, 1L, null, null));
        assertTrue(far.getMessage().contains("more than 2^31 - 1 past base offset 10"), far.getMessage());
    }

    @Test
    void rejectsInconsistentLastOffsetDeltaAndEmptyBatchWithoutOne() {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(64), CompressionType.NONE, 0L)
                .lastOffsetDelta(1)
                .appendWithOffset(3L, 1L, null, null);
        IllegalStateException below = assertThrows(IllegalStateException.class, builder::build);
        assertTrue(below.getMessage().contains("last offset delta 1 is below the last record's 3"), below.getMessage());
        IllegalStateException empty = assertThrows(IllegalStateException.class,
                () -> new RecordBatchBuilder(ByteBuffer.allocate(64), CompressionType.NONE, 0L).build());
        assertTrue(empty.getMessage().contains("empty batch needs an explicit last offset delta"), empty.getMessage());
    }

    @Test
    void rejectsUseAfterBuildAndLateDeleteHorizon() {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(64), CompressionType.NONE, 0L)
                .append(1L, KEY, VALUE);
        IllegalStateException late = assertThrows(IllegalStateException.class, () -> builder.deleteHorizonMs(5L));
        assertTrue(late.getMessage().contains("before the first record"), late.getMessage());
        builder.build();
        IllegalStateException reused = assertThrows(IllegalStateException.class, () -> builder.append(2L, KEY, VALUE));
        assertTrue(reused.getMessage().contains("already built"), reused.getMessage());
    }

    @Test
    void recordIteratorStopsAfterCloseAndReportsExhaustion() {
        RecordBatch batch = RecordBatch.at(new RecordBatchBuilder(ByteBuffer.allocate(64), CompressionType.LZ4, 0L)
                .append(1L, KEY, VALUE).append(2L, KEY, VALUE).build());
        RecordIterator records = batch.recordIterator();
        assertEquals(0L, records.next().offset());
        records.close();
        assertFalse(records.hasNext());
        records.close();
        RecordIterator all = batch.recordIterator();
        all.next();
        all.next();
        assertFalse(all.hasNext());
        assertThrows(java.util.NoSuchElementException.class, all::next);
    }

    @Test
    void compressionTypesResolveByIdAndConfigName() {
        for (CompressionType type : CompressionType.values()) {
            assertSame(type, CompressionType.forId(type.id()));
            assertSame(type, CompressionType.forName(type.configName()));
        }
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> CompressionType.forName("brotli"));
        assertTrue(unknown.getMessage().contains("'brotli'"), unknown.getMessage());
    }
}
