package io.kraft.server.handler;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions are not built yet: a transactional Java producer must fail at once with a message, not retry
 * until max.block.ms.
 */
class TransactionalProducerRefusedTest {
    @TempDir
    Path dir;

    @Test
    void initTransactionsFailsFastWithAReason() throws Exception {
        try (TestNode node = new TestNode(dir, Map.of()).start()) {
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + node.port());
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-1");
            // Long enough that a retried (not refused) lookup would make the test hit its own limit first.
            props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 120_000);
            try (KafkaProducer<String, String> producer =
                         new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
                KafkaException e = assertThrows(KafkaException.class, producer::initTransactions);
                String text = String.valueOf(e.getMessage()) + " " + e.getCause();
                assertTrue(text.contains("transaction") || text.contains("Transaction"), text);
            }
        }
    }
}
