package io.kraft.storage.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every way a batch can be broken is reported as a CorruptRecordException that says what is wrong. */
class CorruptBatchTest {
    private static final byte[] KEY = SampleRecord.bytes("key");
    private static final byte[] VALUE = SampleRecord.bytes("value");

    private static void assertCorrupt(String expectedMessagePart, Executable action) {
        CorruptRecordException e = assertThrows(CorruptRecordException.class, action);
        assertTrue(e.getMessage().contains(expectedMessagePart),
                "expected message containing '" + expectedMessagePart + "' but was: " + e.getMessage());
    }

    private static ByteBuffer validBatch(CompressionType type) {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(256), type, 10L);
        for (int i = 0; i < 5; i++) {
            builder.append(1_000L + i, KEY, SampleRecord.repeated(200 + i));
        }
        return builder.build();
    }

    @Test
    void wrongCrcIsReported() {
        ByteBuffer batch = validBatch(CompressionType.NONE);
        batch.put(batch.limit() - 3, (byte) (batch.get(batch.limit() - 3) ^ 0x40));
        assertCorrupt("has CRC", () -> RecordBatch.at(batch).validate());
        assertCorrupt("has CRC", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void unsupportedMagicIsReported() {
        ByteBuffer batch = validBatch(CompressionType.NONE);
        batch.put(RecordBatch.MAGIC_OFFSET, (byte) 1);
        assertCorrupt("magic 1 is not supported", () -> RecordBatch.at(batch).validate());
        assertCorrupt("magic 1 is not supported", () -> RecordBatch.at(batch).records());
    }

    @Test
    void truncatedHeaderIsReported() {
        ByteBuffer batch = validBatch(CompressionType.NONE).limit(40);
        assertCorrupt("is truncated: 40 bytes, header needs 61", () -> RecordBatch.at(batch).validate());
        assertCorrupt("is truncated", () -> RecordBatch.at(batch).recordIterator());
        ByteBuffer eightBytes = ByteBuffer.allocate(8);
        assertCorrupt("is truncated: 8 bytes left", () -> new BatchIterator(eightBytes, 1024).next());
    }

    @Test
    void batchLengthPastTheBufferIsReported() {
        ByteBuffer batch = validBatch(CompressionType.NONE);
        batch.putInt(RecordBatch.LENGTH_OFFSET, batch.limit());
        assertCorrupt("exceeds the", () -> RecordBatch.at(batch).validate());
        assertCorrupt("but only " + batch.limit() + " bytes remain", () -> new BatchIterator(batch, 1 << 20).next());
    }

    @Test
    void negativeBatchLengthIsReported() {
        ByteBuffer batch = validBatch(CompressionType.NONE);
        batch.putInt(RecordBatch.LENGTH_OFFSET, -5);
        assertCorrupt("negative length -5", () -> new BatchIterator(batch, 1 << 20).next());
        assertCorrupt("smaller than the v2 header", () -> RecordBatch.at(batch).validate());
    }

    @Test
    void oversizedBatchIsReported() {
        ByteBuffer batch = validBatch(CompressionType.NONE);
        assertCorrupt("over the maximum of 100 bytes", () -> new BatchIterator(batch, 100).next());
    }

    @Test
    void countAboveLastOffsetDeltaIsReported() {
        ByteBuffer batch = RawBatch.of(0L, 0, 1, 5, RawBatch.concat(RawBatch.record(0, KEY, VALUE)));
        assertCorrupt("claims 5 records but its last offset delta is 1", () -> RecordBatch.at(batch).validate());
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void fewerRecordsThanDeclaredAreReported(CompressionType type) {
        byte[] records = RawBatch.concat(RawBatch.record(0, KEY, VALUE), RawBatch.record(1, KEY, VALUE));
        ByteBuffer batch = RawBatch.of(0L, type.id(), 2, 3, RawBatch.compress(type, records));
        RecordBatch.at(batch).validate();
        assertCorrupt("declares 3 records but its payload ends after 2", () -> RecordBatch.at(batch).validateRecords());
        assertCorrupt("declares 3 records but its payload ends after 2", () -> RecordBatch.at(batch).records());
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void moreRecordsThanDeclaredAreReported(CompressionType type) {
        byte[] records = RawBatch.concat(RawBatch.record(0, KEY, VALUE), RawBatch.record(1, KEY, VALUE),
                RawBatch.record(2, KEY, VALUE));
        ByteBuffer batch = RawBatch.of(0L, type.id(), 2, 2, RawBatch.compress(type, records));
        RecordBatch.at(batch).validate();
        assertCorrupt("declares 2 records but its payload holds more bytes", () -> RecordBatch.at(batch).validateRecords());
        assertCorrupt("declares 2 records but its payload holds more bytes", () -> RecordBatch.at(batch).records());
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void recordLengthPastThePayloadEndIsReported(CompressionType type) {
        byte[] body = Arrays.copyOfRange(RawBatch.record(0, KEY, VALUE), 1, RawBatch.record(0, KEY, VALUE).length);
        byte[] records = RawBatch.withLength(100, ByteBuffer.wrap(body));
        ByteBuffer batch = RawBatch.of(0L, type.id(), 0, 1, RawBatch.compress(type, records));
        String where = type == CompressionType.NONE ? "remain in the batch" : "remain in the decompressed payload";
        assertCorrupt("record 0 of batch at offset 0 has length 100 but only " + body.length + " bytes " + where,
                () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void negativeRecordLengthIsReported() {
        ByteBuffer batch = RawBatch.of(0L, 0, 0, 1, RawBatch.withLength(-7, ByteBuffer.wrap(new byte[8])));
        assertCorrupt("record 0 of batch at offset 0 has negative length -7", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void fieldsRunningPastTheRecordLengthAreReported() {
        byte[] good = RawBatch.record(0, KEY, VALUE);
        byte[] body = Arrays.copyOfRange(good, 1, good.length);
        // Declares 3 bytes: attributes, timestamp delta, offset delta; the key length is missing.
        ByteBuffer batch = RawBatch.plain(RawBatch.withLength(3, ByteBuffer.wrap(body, 0, 3)));
        assertCorrupt("fields run past its length of 3 bytes", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void keyLongerThanTheRecordIsReported() {
        ByteBuffer body = ByteBuffer.allocate(16);
        body.put((byte) 0);
        Varint.writeVarlong(0, body);
        Varint.writeVarint(0, body);
        Varint.writeVarint(50, body);
        body.put(new byte[5]).flip();
        ByteBuffer batch = RawBatch.plain(RawBatch.withLength(body.remaining(), body));
        assertCorrupt("key length 50 exceeds the 5 bytes left in the record", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void bytesLeftAfterTheHeadersAreReported() {
        byte[] good = RawBatch.record(0, KEY, VALUE);
        byte[] padded = RawBatch.concat(Arrays.copyOfRange(good, 1, good.length), new byte[3]);
        ByteBuffer batch = RawBatch.plain(RawBatch.withLength(padded.length, ByteBuffer.wrap(padded)));
        assertCorrupt("3 bytes are left over after its last header", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void headerWithoutKeyIsReported() {
        ByteBuffer body = ByteBuffer.allocate(32);
        body.put((byte) 0);
        Varint.writeVarlong(0, body);
        Varint.writeVarint(0, body);
        RawBatch.writeNullable(body, KEY);
        RawBatch.writeNullable(body, VALUE);
        Varint.writeVarint(1, body);
        Varint.writeVarint(-1, body);
        Varint.writeVarint(-1, body);
        body.flip();
        ByteBuffer batch = RawBatch.plain(RawBatch.withLength(body.remaining(), body));
        assertCorrupt("header 0 key length -1 is invalid", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void absurdHeaderCountIsReportedWithoutLooping() {
        ByteBuffer body = ByteBuffer.allocate(32);
        body.put((byte) 0);
        Varint.writeVarlong(0, body);
        Varint.writeVarint(0, body);
        RawBatch.writeNullable(body, null);
        RawBatch.writeNullable(body, null);
        Varint.writeVarint(Integer.MAX_VALUE, body);
        body.flip();
        ByteBuffer batch = RawBatch.plain(RawBatch.withLength(body.remaining(), body));
        assertCorrupt("header count 2147483647 cannot fit", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void offsetDeltasThatDoNotIncreaseAreReported() {
        ByteBuffer repeated = RawBatch.of(0L, 0, 5, 2,
                RawBatch.concat(RawBatch.record(3, KEY, VALUE), RawBatch.record(3, KEY, VALUE)));
        assertCorrupt("record 1 of batch at offset 0 has offset delta 3, not above the previous record's 3",
                () -> RecordBatch.at(repeated).validateRecords());
        ByteBuffer negative = RawBatch.of(0L, 0, 5, 1, RawBatch.record(-1, KEY, VALUE));
        assertCorrupt("offset delta -1, not above", () -> RecordBatch.at(negative).validateRecords());
    }

    @Test
    void offsetDeltaPastTheLastOffsetDeltaIsReported() {
        ByteBuffer batch = RawBatch.of(0L, 0, 1, 2,
                RawBatch.concat(RawBatch.record(0, KEY, VALUE), RawBatch.record(2, KEY, VALUE)));
        assertCorrupt("offset delta 2, past the batch's last offset delta 1", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void unknownCompressionCodecIsReported() {
        ByteBuffer batch = RawBatch.of(0L, 6, 0, 1, RawBatch.record(0, KEY, VALUE));
        assertCorrupt("uses unknown compression codec 6", () -> RecordBatch.at(batch).validateRecords());
        assertCorrupt("uses unknown compression codec 6", () -> RecordBatch.at(batch).records());
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void garbageCompressedPayloadIsReported(CompressionType type) {
        byte[] garbage = SampleRecord.random(new Random(type.id()), 300);
        ByteBuffer batch = RawBatch.of(0L, type.id(), 0, 1, garbage);
        assertCorrupt("compressed payload (" + type.configName() + ") of batch at offset 0 is corrupt",
                () -> RecordBatch.at(batch).validateRecords());
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void truncatedCompressedPayloadIsReported(CompressionType type) {
        ByteBuffer whole = validBatch(type);
        RecordBatch original = RecordBatch.at(whole);
        original.validateRecords();
        byte[] payload = new byte[whole.limit() - RecordBatch.HEADER_SIZE];
        whole.get(RecordBatch.HEADER_SIZE, payload);
        byte[] truncated = Arrays.copyOf(payload, payload.length / 2);
        ByteBuffer batch = RawBatch.of(10L, type.id(), 4, 5, truncated);
        CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> RecordBatch.at(batch).validateRecords());
        assertTrue(e.getMessage().contains("batch at offset 10"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void flippedByteInCompressedPayloadIsCaughtByCrcOrRecordChecks(CompressionType type) {
        ByteBuffer batch = validBatch(type);
        int middle = RecordBatch.HEADER_SIZE + (batch.limit() - RecordBatch.HEADER_SIZE) / 2;
        batch.put(middle, (byte) (batch.get(middle) ^ 0xFF));
        assertCorrupt("has CRC", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void lz4HeaderChecksumMismatchIsReported() {
        byte[] frame = RawBatch.compress(CompressionType.LZ4, RawBatch.record(0, KEY, VALUE));
        frame[6] ^= 0x01;
        ByteBuffer batch = RawBatch.of(0L, CompressionType.LZ4.id(), 0, 1, frame);
        assertCorrupt("header checksum", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void controlRecordWithShortKeyIsReported() {
        ByteBuffer batch = RawBatch.of(0L, RecordBatch.CONTROL_FLAG_MASK, 0, 1,
                RawBatch.record(0, new byte[] {0, 0}, new EndTransactionMarker(ControlRecordType.COMMIT, 1).value().array()));
        RecordBatch.at(batch).records();
        assertCorrupt("control record key has 2 bytes, needs at least 4", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void controlRecordOfUnknownTypeIsReported() {
        ByteBuffer batch = RawBatch.of(0L, RecordBatch.CONTROL_FLAG_MASK, 0, 1,
                RawBatch.record(0, new byte[] {0, 0, 0, 9}, new byte[6]));
        assertCorrupt("control record type 9 is unknown", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void controlRecordWithNegativeKeyVersionIsReported() {
        ByteBuffer batch = RawBatch.of(0L, RecordBatch.CONTROL_FLAG_MASK, 0, 1,
                RawBatch.record(0, new byte[] {(byte) 0xFF, (byte) 0xFF, 0, 1}, new byte[6]));
        assertCorrupt("control record key version -1 is negative", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void controlRecordWithoutKeyIsReported() {
        ByteBuffer batch = RawBatch.of(0L, RecordBatch.CONTROL_FLAG_MASK, 0, 1, RawBatch.record(0, null, new byte[6]));
        assertCorrupt("has a record without a key", () -> RecordBatch.at(batch).validateRecords());
    }

    @Test
    void markerWithShortValueIsReported() {
        ByteBuffer batch = RawBatch.of(0L, RecordBatch.CONTROL_FLAG_MASK, 0, 1,
                RawBatch.record(0, ControlRecordType.ABORT.key().array(), new byte[] {0, 0, 0}));
        assertCorrupt("ABORT marker value has 3 bytes, needs at least 6", () -> RecordBatch.at(batch).validateRecords());
        assertCorrupt("ABORT marker value has 3 bytes", () -> EndTransactionMarker.fromBatch(RecordBatch.at(batch)));
    }

    @Test
    void markerParserRejectsDataBatches() {
        ByteBuffer batch = validBatch(CompressionType.NONE);
        assertCorrupt("is not a control batch", () -> EndTransactionMarker.fromBatch(RecordBatch.at(batch)));
    }

    @Test
    void corruptionInTheMiddleStopsIterationWithTheRecordIndex() {
        byte[] bad = RawBatch.withLength(2, ByteBuffer.wrap(new byte[] {0, 0}));
        ByteBuffer batch = RawBatch.of(0L, 0, 2, 2, RawBatch.concat(RawBatch.record(0, KEY, VALUE), bad));
        try (RecordIterator records = RecordBatch.at(batch).recordIterator()) {
            assertEquals(0L, records.next().offset());
            assertCorrupt("record 1 of batch at offset 0 is corrupt", records::next);
        }
    }
}
