package io.kraft.storage.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** A record as a test writes it, with the edge cases every format test should carry. */
record SampleRecord(long timestampMs, byte[] key, byte[] value, Header... headers) {

    /** Nulls, empties, non-ASCII header keys, out-of-order timestamps, and values spanning codec blocks. */
    static List<SampleRecord> edgeCases() {
        List<SampleRecord> records = new ArrayList<>();
        records.add(new SampleRecord(1_700_000_000_000L, bytes("k0"), bytes("v0")));
        records.add(new SampleRecord(1_700_000_000_005L, null, bytes("value without key")));
        records.add(new SampleRecord(1_699_999_999_000L, bytes("tombstone"), null));
        records.add(new SampleRecord(1_700_000_000_010L, new byte[0], new byte[0]));
        records.add(new SampleRecord(1_700_000_000_011L, null, null,
                new Header("trace", bytes("abc")), new Header("no-value", null), new Header("", new byte[0]),
                new Header("ключ-🔑", bytes("значение"))));
        records.add(new SampleRecord(1_700_000_000_012L, bytes("big-compressible"), repeated(150_000)));
        records.add(new SampleRecord(1_700_000_000_013L, bytes("big-random"), random(new Random(7), 100_000)));
        records.add(new SampleRecord(1_700_000_000_014L, bytes("last"), bytes("v")));
        return records;
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] repeated(int size) {
        byte[] pattern = bytes("the quick brown fox jumps over the lazy dog 0123456789 ");
        byte[] out = new byte[size];
        for (int i = 0; i < size; i++) {
            out[i] = pattern[i % pattern.length];
        }
        return out;
    }

    static byte[] random(Random random, int size) {
        byte[] out = new byte[size];
        random.nextBytes(out);
        return out;
    }

    static byte[] toArray(ByteBuffer buffer) {
        if (buffer == null) {
            return null;
        }
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }

    org.apache.kafka.common.header.Header[] kafkaHeaders() {
        return Arrays.stream(headers)
                .map(h -> new org.apache.kafka.common.header.internals.RecordHeader(h.key(), h.value()))
                .toArray(org.apache.kafka.common.header.Header[]::new);
    }

    /** Checks key, value and headers of a record read here. */
    void assertContent(Record actual) {
        assertArrayEquals(key, toArray(actual.key()), "key at offset " + actual.offset());
        assertArrayEquals(value, toArray(actual.value()), "value at offset " + actual.offset());
        assertEquals(key == null ? -1 : key.length, actual.keySize());
        assertEquals(value == null ? -1 : value.length, actual.valueSize());
        assertEquals(List.of(headers), actual.headers(), "headers at offset " + actual.offset());
    }

    /** Checks key, value and headers of a record read by kafka-clients. */
    void assertContent(org.apache.kafka.common.record.internal.Record actual) {
        assertArrayEquals(key, toArray(actual.key()), "key at offset " + actual.offset());
        assertArrayEquals(value, toArray(actual.value()), "value at offset " + actual.offset());
        org.apache.kafka.common.header.Header[] actualHeaders = actual.headers();
        assertEquals(headers.length, actualHeaders.length);
        for (int i = 0; i < headers.length; i++) {
            assertEquals(headers[i].key(), actualHeaders[i].key());
            if (headers[i].hasValue()) {
                assertArrayEquals(headers[i].value(), actualHeaders[i].value());
            } else {
                assertNull(actualHeaders[i].value());
            }
        }
    }

    @Override
    public String toString() {
        return "SampleRecord(ts=" + timestampMs + ", key=" + (key == null ? "null" : key.length + "B") + ", value="
                + (value == null ? "null" : value.length + "B") + ", headers=" + headers.length + ")";
    }
}
