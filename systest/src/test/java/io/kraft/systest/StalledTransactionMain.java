package io.kraft.systest;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A transactional producer as its own process, for kill -9 tests: opens a transaction, sends one record to each
 * partition ({@code stalled-<partition>}), waits for their acknowledgements, prints "transaction open" and then does
 * nothing until it is killed. Arguments: bootstrap servers, topic, partition count, transactional id,
 * transaction.timeout.ms.
 */
public final class StalledTransactionMain {
    private StalledTransactionMain() {
    }

    public static void main(String[] args) throws Exception {
        String topic = args[1];
        int partitions = Integer.parseInt(args[2]);
        KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0],
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, args[3],
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Integer.parseInt(args[4])),
                new StringSerializer(), new StringSerializer());
        producer.initTransactions();
        producer.beginTransaction();
        for (int partition = 0; partition < partitions; partition++) {
            producer.send(new ProducerRecord<>(topic, partition, null, "stalled-" + partition)).get(30, TimeUnit.SECONDS);
        }
        System.out.println("transaction open");
        Thread.sleep(Long.MAX_VALUE);
    }
}
