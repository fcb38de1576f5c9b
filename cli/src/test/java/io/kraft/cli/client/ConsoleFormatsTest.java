package io.kraft.cli.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** Kafka's console-tool text formats: --add-config lists, console-producer lines, console-consumer output. */
class ConsoleFormatsTest {
    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void addConfigKeepsBracketedListsTogether() {
        assertEquals(Map.of("retention.ms", "1000", "cleanup.policy", "compact,delete", "segment.ms", "5"),
                ConfigAssignments.parse("retention.ms=1000,cleanup.policy=[compact,delete],segment.ms=5"));
        assertEquals(Map.of("a", "x=y"), ConfigAssignments.parse("a=x=y"));
        assertEquals(List.of("a", "b"), ConfigAssignments.keys("a, b,"));
        assertThrows(IllegalArgumentException.class, () -> ConfigAssignments.parse("novalue"));
        assertThrows(IllegalArgumentException.class, () -> ConfigAssignments.parse("a=[x,y"));
        assertThrows(IllegalArgumentException.class, () -> ConfigAssignments.parse("a=x]"));
    }

    @Test
    void producerLinesAreValuesOrKeyedValues() {
        LineReader.KeyValue plain = LineReader.of(Map.of()).read("hello:world", 1);
        assertNull(plain.key());
        assertArrayEquals(utf8("hello:world"), plain.value());

        LineReader keyed = LineReader.of(Map.of("parse.key", "true", "key.separator", ":"));
        LineReader.KeyValue record = keyed.read("user-1:signed in:twice", 1);
        assertArrayEquals(utf8("user-1"), record.key());
        assertArrayEquals(utf8("signed in:twice"), record.value());
        IllegalArgumentException noSeparator = assertThrows(IllegalArgumentException.class,
                () -> keyed.read("no separator", 7));
        assertTrue(noSeparator.getMessage().contains("line 7"), noSeparator.getMessage());

        LineReader tabbed = LineReader.of(Map.of("parse.key", "true", "null.marker", "NULL"));
        assertNull(tabbed.read("k\tNULL", 1).value());
        assertThrows(IllegalArgumentException.class, () -> LineReader.of(Map.of("parse.keys", "true")));
        assertThrows(IllegalArgumentException.class, () -> LineReader.of(Map.of("parse.key", "yes")));
    }

    @Test
    void consumerOutputFollowsTheDefaultMessageFormatter() {
        RecordHeaders headers = new RecordHeaders(List.of(new RecordHeader("h1", utf8("v1")),
                new RecordHeader("h2", null)));
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("orders", 2, 41L, 1_700_000_000_000L,
                TimestampType.CREATE_TIME, 3, 5, utf8("key"), utf8("value"), headers, Optional.empty());
        assertEquals("value\n", RecordFormatter.of(Map.of()).format(record));
        assertEquals("key:value\n", RecordFormatter.of(Map.of("print.key", "true", "key.separator", ":"))
                .format(record));
        assertEquals("CreateTime:1700000000000\tPartition:2\tOffset:41\th1:v1,h2:null\tkey\tvalue\n",
                RecordFormatter.of(Map.of("print.timestamp", "true", "print.partition", "true", "print.offset", "true",
                        "print.headers", "true", "print.key", "true")).format(record));
        ConsumerRecord<byte[], byte[]> tombstone = new ConsumerRecord<>("orders", 0, 0L, null, null);
        assertEquals("null\tnull\n", RecordFormatter.of(Map.of("print.key", "true")).format(tombstone));
        assertThrows(IllegalArgumentException.class, () -> RecordFormatter.of(Map.of("print.colour", "true")));
    }

    @Test
    void failuresBecomeOneLineWithTheirReason() {
        ExecutionException wrapped = new ExecutionException(new KafkaException("Failed to create new KafkaAdminClient",
                new KafkaException("No resolvable bootstrap urls\ngiven")));
        assertEquals("Failed to create new KafkaAdminClient: No resolvable bootstrap urls given",
                ClientFailures.message(wrapped));
        assertEquals("IllegalStateException", ClientFailures.message(new IllegalStateException()));
        assertEquals(Map.of("acks", "1", "bootstrap.servers", "h:1"),
                ClientProperties.of("h:1", null, List.of("acks=1")));
        assertThrows(IllegalArgumentException.class, () -> ClientProperties.of("h:1", null, List.of("acks")));
    }
}
