package io.kraft.server.group;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * A consumer-protocol group member in its own JVM, so a test can kill it with SIGKILL: subscribes to a topic and
 * polls until killed, printing "polled" after its first records. Arguments: bootstrap, topic, group.
 */
public final class ConsumerProtocolMemberMain {
    private ConsumerProtocolMemberMain() {
    }

    public static void main(String[] args) {
        Properties props = ConsumerProtocolGroupTest.consumerProps(args[0], args[2]);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(args[1]));
            boolean announced = false;
            while (true) {
                int count = consumer.poll(Duration.ofMillis(100)).count();
                if (count > 0) {
                    consumer.commitSync();
                    if (!announced) {
                        System.out.println("polled");
                        System.out.flush();
                        announced = true;
                    }
                }
            }
        }
    }
}
