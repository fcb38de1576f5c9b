package io.kraft.broker.api.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.ClientRecords;
import io.kraft.broker.ResponseDroppingProxy;
import io.kraft.broker.StandaloneBroker;
import io.kraft.storage.log.TopicPartition;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Idempotence end to end: the broker appends a batch but its answer is lost with the connection; the default
 * (idempotent) producer sends the batch again and the broker answers with the original offsets, writing nothing.
 */
class IdempotentRetryTest {
    @TempDir
    Path logDir;

    @Test
    void aRetryAfterALostProduceResponseWritesNoDuplicate() throws Exception {
        try (ResponseDroppingProxy proxy = new ResponseDroppingProxy(ApiKeys.PRODUCE.id);
             StandaloneBroker broker = new StandaloneBroker(logDir, Map.of(), proxy.port())) {
            proxy.forwardTo(broker.port());
            broker.createTopic("once", 1, Map.of());
            int count = 2_000;
            int[] partitions;
            try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer("127.0.0.1:" + proxy.port(),
                    Map.of(ProducerConfig.LINGER_MS_CONFIG, "20"))) {
                partitions = ClientRecords.produce(producer, "once", count);
            }
            assertTrue(proxy.droppedOne(), "the proxy lost a produce response");
            assertEquals(count, broker.replicaManager().partition(new TopicPartition("once", 0)).orElseThrow()
                    .logEndOffset(), "every record written exactly once");
            try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(broker.bootstrapServers(), Map.of())) {
                ClientRecords.consumeAndVerify(consumer, "once", 1, count, partitions);
            }
        }
    }
}
