package io.kraft.server.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.share.state.ShareCoordinatorConfig;
import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A share group's delivery state survives a broker restart (KIP-932's {@code __share_group_state}): with unmodified
 * kafka-clients 4.4 {@link KafkaShareConsumer}s, what was acknowledged before the restart is not delivered again, and
 * what was acquired but not acknowledged is, with its delivery count.
 */
class ShareGroupRestartTest {
    private static final String TOPIC = "share-durable";
    private static final String GROUP = "durable";

    @Test
    void acknowledgedRecordsStayAcknowledgedAcrossARestart(@TempDir Path dir) throws Exception {
        try (TestNode node = ShareGroupTests.node(dir, Map.of(ShareCoordinatorConfig.STATE_TOPIC_NUM_PARTITIONS, "3"))
                .start()) {
            ShareGroupTests.createAndFill(node, TOPIC, 20);

            KafkaShareConsumer<String, String> before = new KafkaShareConsumer<>(consumerProps(node));
            try {
                before.subscribe(List.of(TOPIC));
                Map<Long, ConsumerRecord<String, String>> got = new TreeMap<>();
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                    before.poll(Duration.ofMillis(200)).forEach(r -> got.put(r.offset(), r));
                    return got.size() == 20;
                });
                for (long offset = 0; offset < 10; offset++) {
                    before.acknowledge(got.get(offset), AcknowledgeType.ACCEPT);
                }
                before.commitSync(Duration.ofSeconds(30)).forEach((tp, error) -> assertTrue(error.isEmpty(),
                        tp + ": " + error));
                // Offsets 10-19 stay acquired by this consumer, unacknowledged, while the broker restarts.
                node.restart();
            } finally {
                before.close(Duration.ZERO);
            }

            try (KafkaShareConsumer<String, String> after = new KafkaShareConsumer<>(consumerProps(node))) {
                after.subscribe(List.of(TOPIC));
                Map<Long, Short> deliveries = new TreeMap<>();
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                    after.poll(Duration.ofMillis(200)).forEach(r -> {
                        deliveries.put(r.offset(), r.deliveryCount().orElse((short) -1));
                        after.acknowledge(r, AcknowledgeType.ACCEPT);
                    });
                    return deliveries.size() >= 10;
                });
                assertEquals(LongStream.range(10, 20).boxed().toList(), List.copyOf(deliveries.keySet()),
                        "offsets delivered after the restart");
                deliveries.forEach((offset, count) -> assertEquals((short) 2, count, "delivery count of " + offset));
            }
        }
    }

    private static Properties consumerProps(TestNode node) {
        return ShareGroupTests.consumerProps(node, GROUP, 50, true);
    }
}
