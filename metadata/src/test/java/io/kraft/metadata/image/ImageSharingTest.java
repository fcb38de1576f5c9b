package io.kraft.metadata.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.RemoveTopicRecord;
import io.kraft.proto.metadata.TopicRecord;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Applying a delta costs what it changed, not what the image holds: over an image of 100,000 topics, each of 10,000
 * one-topic deltas (an ISR change, a new topic, a deleted topic) may allocate at most what copying a constant number
 * of topic entries would, and shares every topic it did not touch with the image before. Counted in bytes the
 * applying thread allocated (a copy of the topic maps allocates at least 32 bytes per topic), never timed.
 */
class ImageSharingTest {
    private static final int TOPICS = 100_000;
    private static final int PARTITIONS = 2;
    private static final int STEPS = 10_000;
    /** What copying 1,000 topics' map entries would allocate at the least; a whole-map copy is 100 times this. */
    private static final long MAX_BYTES_PER_STEP = 1_000 * 32;

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final Random random = new Random(Long.getLong("kraft.seed", 16));
    private final List<UUID> ids = new ArrayList<>();
    private long offset = -1;

    @Test
    void oneTopicDeltasShareEveryUntouchedTopic() {
        MetadataImage image = initialImage();
        for (int warmup = 0; warmup < 300; warmup++) {
            image = step(image, warmup % 3).image;
        }
        long worst = 0;
        for (int i = 0; i < STEPS; i++) {
            Step step = step(image, i % 3);
            worst = Math.max(worst, step.allocatedBytes);
            assertTrue(step.allocatedBytes <= MAX_BYTES_PER_STEP, "step " + i + " (" + step.what + ") allocated "
                    + step.allocatedBytes + " bytes, more than " + MAX_BYTES_PER_STEP);
            assertUntouchedTopicsShared(image, step.image, step.touched);
            image = step.image;
        }
        assertEquals(TOPICS + netCreated, image.topics().size());
        System.out.println("largest allocation of one step over " + TOPICS + " topics: " + worst + " bytes");
    }

    private int netCreated;

    private record Step(MetadataImage image, UUID touched, String what, long allocatedBytes) {
    }

    /** One delta of one record set, applied; kind 0 changes an ISR, 1 creates a topic, 2 deletes one. */
    private Step step(MetadataImage image, int kind) {
        List<MetadataRecord> records = new ArrayList<>();
        UUID touched;
        String what;
        switch (kind) {
            case 0 -> {
                touched = ids.get(random.nextInt(ids.size()));
                int leader = random.nextInt(3);
                records.add(MetadataRecords.of(PartitionChangeRecord.newBuilder().setTopicId(Uuids.toProto(touched))
                        .setPartitionId(random.nextInt(PARTITIONS))
                        .setIsr(BrokerIdList.newBuilder().addBrokerIds(leader)).setLeader(leader).build()));
                what = "ISR change";
            }
            case 1 -> {
                touched = new UUID(random.nextLong() | 1, random.nextLong());
                records.addAll(topicRecords(touched, "created-" + touched));
                ids.add(touched);
                netCreated++;
                what = "topic creation";
            }
            default -> {
                touched = ids.remove(ids.size() - 1);
                records.add(MetadataRecords.of(RemoveTopicRecord.newBuilder().setTopicId(Uuids.toProto(touched))
                        .build()));
                netCreated--;
                what = "topic deletion";
            }
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        MetadataDelta delta = new MetadataDelta(image);
        delta.replayBatch(records, offset + 1, 1);
        MetadataImage next = delta.apply();
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        offset += records.size();
        return new Step(next, touched, what, allocated);
    }

    /** A sample of untouched topics (checking all would make the test itself O(image) per step). */
    private void assertUntouchedTopicsShared(MetadataImage before, MetadataImage after, UUID touched) {
        for (int i = 0; i < 20; i++) {
            UUID id = ids.get(random.nextInt(ids.size()));
            if (!id.equals(touched) && before.topics().topic(id) != null) {
                assertSame(before.topics().topic(id), after.topics().topic(id), "topic " + id + " was rebuilt");
                TopicImage topic = before.topics().topic(id);
                assertSame(topic, after.topics().topic(topic.name()));
            }
        }
    }

    private MetadataImage initialImage() {
        List<MetadataRecord> records = new ArrayList<>(TOPICS * (PARTITIONS + 1));
        for (int t = 0; t < TOPICS; t++) {
            UUID id = new UUID(random.nextLong() | 1, random.nextLong());
            ids.add(id);
            records.addAll(topicRecords(id, "topic-" + t));
        }
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.replayBatch(records, 0, 1);
        offset = records.size() - 1;
        MetadataImage image = delta.apply();
        assertEquals(TOPICS, image.topics().size());
        return image;
    }

    private static List<MetadataRecord> topicRecords(UUID id, String name) {
        List<MetadataRecord> records = new ArrayList<>();
        records.add(MetadataRecords.of(TopicRecord.newBuilder().setName(name).setTopicId(Uuids.toProto(id)).build()));
        for (int p = 0; p < PARTITIONS; p++) {
            records.add(MetadataRecords.of(PartitionRecord.newBuilder().setTopicId(Uuids.toProto(id))
                    .setPartitionId(p).addReplicas(0).addReplicas(1).addReplicas(2).addIsr(0).addIsr(1).addIsr(2)
                    .setLeader(0).build()));
        }
        return records;
    }
}
