package io.kraft.server.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.share.ShareGroupConfig;
import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unmodified kafka-clients 4.4 {@link KafkaShareConsumer}s (KIP-932) against one in-process node: consumers sharing
 * one partition, redelivery after a consumer stops mid-batch, and explicit accept, release and reject.
 */
class ShareGroupTest {
    private static final int LOCK_MS = 3_000;

    @TempDir
    static Path dir;
    private static TestNode node;

    @BeforeAll
    static void startNode() throws Exception {
        node = ShareGroupTests.node(dir, Map.of(ShareGroupConfig.SESSION_TIMEOUT_MS, "30000",
                ShareGroupConfig.RECORD_LOCK_DURATION_MS, Integer.toString(LOCK_MS))).start();
    }

    @AfterAll
    static void stopNode() {
        if (node != null) {
            node.close();
        }
    }

    private static Properties consumerProps(String group, boolean explicit) {
        return ShareGroupTests.consumerProps(node, group, 20, explicit);
    }

    private static void createAndFill(String topic, int records) throws Exception {
        ShareGroupTests.createAndFill(node, topic, records);
    }

    @Test
    void threeConsumersOnOnePartitionReceiveDisjointRecords() throws Exception {
        String topic = "share-disjoint";
        int total = 300;
        createAndFill(topic, total);
        Map<Long, List<Integer>> receivedBy = new ConcurrentHashMap<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            int id = c;
            Thread t = new Thread(() -> {
                try (KafkaShareConsumer<String, String> consumer =
                             new KafkaShareConsumer<>(consumerProps("disjoint", false))) {
                    consumer.subscribe(List.of(topic));
                    while (!stop.get()) {
                        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                            receivedBy.computeIfAbsent(r.offset(), o -> new CopyOnWriteArrayList<>()).add(id);
                            Thread.sleep(2); // processing: lets the others take the records this one has not
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "share-consumer-" + c);
            t.start();
            threads.add(t);
        }
        try {
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> receivedBy.size() == total
                    || !failures.isEmpty());
        } finally {
            stop.set(true);
            for (Thread t : threads) {
                t.join(30_000);
            }
        }
        assertEquals(List.of(), failures);
        Map<Integer, Integer> perConsumer = new HashMap<>();
        receivedBy.forEach((offset, consumers) -> {
            assertEquals(1, consumers.size(), "offset " + offset + " went to " + consumers);
            perConsumer.merge(consumers.get(0), 1, Integer::sum);
        });
        assertEquals(total, receivedBy.size());
        assertTrue(perConsumer.size() >= 2, "records went to one consumer only: " + perConsumer);
    }

    @Test
    void recordsOfAConsumerStoppedMidBatchAreRedeliveredToAnother() throws Exception {
        String topic = "share-redeliver";
        createAndFill(topic, 10);
        KafkaShareConsumer<String, String> stuck = new KafkaShareConsumer<>(consumerProps("redeliver", true));
        try {
            stuck.subscribe(List.of(topic));
            List<ConsumerRecord<String, String>> held = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                stuck.poll(Duration.ofMillis(200)).forEach(held::add);
                return !held.isEmpty();
            });
            // It never acknowledges nor polls again: its acquisition locks run out and another member gets them.
            Set<Long> heldOffsets = ConcurrentHashMap.newKeySet();
            held.forEach(r -> heldOffsets.add(r.offset()));
            Map<Long, Short> redelivered = new ConcurrentHashMap<>();
            try (KafkaShareConsumer<String, String> other = new KafkaShareConsumer<>(consumerProps("redeliver",
                    false))) {
                other.subscribe(List.of(topic));
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                    other.poll(Duration.ofMillis(200)).forEach(r -> redelivered.put(r.offset(),
                            r.deliveryCount().orElse((short) -1)));
                    return redelivered.keySet().containsAll(heldOffsets);
                });
            }
            heldOffsets.forEach(o -> assertEquals((short) 2, redelivered.get(o), "delivery count of " + o));
        } finally {
            stuck.close(Duration.ZERO);
        }
    }

    @Test
    void rejectedRecordGoesNoFurtherAndReleasedOneComesBackWithItsDeliveryCount() throws Exception {
        String topic = "share-ack-types";
        createAndFill(topic, 3);
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(consumerProps("acks", true))) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<String, String>> first = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(first::add);
                return first.size() == 3;
            });
            for (ConsumerRecord<String, String> r : first) {
                assertEquals((short) 1, r.deliveryCount().orElseThrow());
                consumer.acknowledge(r, r.offset() == 0 ? AcknowledgeType.REJECT
                        : r.offset() == 1 ? AcknowledgeType.RELEASE : AcknowledgeType.ACCEPT);
            }
            consumer.commitSync(Duration.ofSeconds(30)).forEach((tp, error) -> assertTrue(error.isEmpty(),
                    tp + ": " + error));
            List<ConsumerRecord<String, String>> again = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(again::add);
                return !again.isEmpty();
            });
            assertEquals(1, again.size());
            assertEquals(1L, again.get(0).offset());
            assertEquals((short) 2, again.get(0).deliveryCount().orElseThrow());
            consumer.acknowledge(again.get(0), AcknowledgeType.ACCEPT);
            consumer.commitSync(Duration.ofSeconds(30));
            // Nothing more: the rejected record is archived, the others accepted (well past the lock duration).
            long until = System.currentTimeMillis() + LOCK_MS + 1_000;
            while (System.currentTimeMillis() < until) {
                assertTrue(consumer.poll(Duration.ofMillis(200)).isEmpty());
            }
            ShareGroupDescription description = node.admin().describeShareGroups(List.of("acks"))
                    .describedGroups().get("acks").get(30, TimeUnit.SECONDS);
            assertEquals(1, description.members().size());
            assertFalse(description.members().iterator().next().assignment().topicPartitions().isEmpty());
            List<GroupListing> listed = new ArrayList<>(node.admin().listGroups(ListGroupsOptions.forShareGroups())
                    .all().get(30, TimeUnit.SECONDS));
            assertTrue(listed.stream().anyMatch(g -> g.groupId().equals("acks")
                    && g.type().equals(Optional.of(GroupType.SHARE))
                    && g.groupState().equals(Optional.of(GroupState.STABLE))), listed.toString());
        }
    }
}
