package io.kraft.testkit.example;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** A small kafka-clients application, the kind a user tests with the testkit: it writes greetings and reads them. */
public final class GreetingLog implements AutoCloseable {
    private final String topic;
    private final KafkaProducer<String, String> producer;
    private final KafkaConsumer<String, String> consumer;

    public GreetingLog(String bootstrapServers, String topic) {
        this.topic = topic;
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer());
        this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "greeting-readers",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(topic));
    }

    /** Writes a greeting for {@code name} and waits until the cluster acknowledged it. */
    public void greet(String name) throws ExecutionException, InterruptedException {
        producer.send(new ProducerRecord<>(topic, name, "hello, " + name)).get();
    }

    /** The greetings read within {@code timeout}, until {@code expected} of them arrived. */
    public List<String> read(int expected, Duration timeout) {
        List<String> greetings = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (greetings.size() < expected && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                greetings.add(record.value());
            }
        }
        return greetings;
    }

    @Override
    public void close() {
        producer.close();
        consumer.close();
    }
}
