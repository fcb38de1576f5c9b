package io.kraft.metadata.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.fault.RecordingFaultHandler;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.loop.EventLoop;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.TopicRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Images reach publishers on the publishers' own loop, in order, folded together while they lag; a failure is a fault. */
class PublisherQueueTest {
    /** A loop that runs its events only when the test says so. */
    private static final class ManualLoop implements EventLoop {
        private final ArrayDeque<Runnable> queued = new ArrayDeque<>();

        @Override
        public boolean execute(String name, Runnable event) {
            return queued.add(event);
        }

        @Override
        public Scheduled schedule(String name, long deadlineMs, Runnable event) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean inLoop() {
            return false;
        }

        void runAll() {
            while (!queued.isEmpty()) {
                queued.poll().run();
            }
        }

        @Override
        public void close() {
        }
    }

    private final ManualLoop loop = new ManualLoop();
    private final RecordingFaultHandler faults = new RecordingFaultHandler();
    private final PublisherQueue queue = new PublisherQueue("Broker 7", loop, faults);
    private MetadataImage image = MetadataImage.EMPTY;

    /** Commits a topic with one partition as the loader would, and hands it to the queue. */
    private void commitTopic(String name) {
        UUID id = UUID.nameUUIDFromBytes(name.getBytes());
        List<MetadataRecord> records = List.of(
                MetadataRecords.of(TopicRecord.newBuilder().setName(name).setTopicId(Uuids.toProto(id)).build()),
                new PartitionRegistration(List.of(1), List.of(1), 1, 0, 0).toRecord(id, 0));
        MetadataDelta delta = new MetadataDelta(image);
        long first = image.offset() + 1;
        delta.replayBatch(records, first, 1);
        image = delta.apply();
        queue.publishBatch(delta, image, records, first, 1);
    }

    private record Published(Set<String> createdTopics, MetadataImage image) {
    }

    private static MetadataPublisher recordingInto(List<Published> published) {
        return (delta, image) -> published.add(new Published(delta.topicsDelta().createdTopicIds().stream()
                .map(id -> image.topics().topic(id).name()).collect(Collectors.toSet()), image));
    }

    @Test
    void publishersRunOnTheirOwnLoopInOrderAndCatchUpInOneDelta() {
        List<Published> published = new ArrayList<>();
        queue.register(recordingInto(published));
        commitTopic("a");
        assertTrue(published.isEmpty(), "nothing runs on the committing thread");
        loop.runAll();
        commitTopic("b");
        commitTopic("c");
        loop.runAll();
        assertEquals(List.of(new Published(Set.of("a"), published.get(0).image()),
                new Published(Set.of("b", "c"), image)), published, "b and c came while the publisher lagged");
        assertEquals(image, queue.published());
        assertEquals(List.of(), faults.faults());
    }

    @Test
    void aFailingPublisherIsAFaultNamingItAndTheOffset() {
        List<Published> later = new ArrayList<>();
        queue.register(new MetadataPublisher() {
            @Override
            public void publish(MetadataDelta delta, MetadataImage newImage) {
                throw new IllegalStateException("disk full");
            }

            @Override
            public String name() {
                return "ReplicaManager";
            }
        });
        queue.register(recordingInto(later));
        commitTopic("a");
        loop.runAll();
        commitTopic("b");
        loop.runAll();
        assertEquals(1, faults.faults().size(), faults.faults().toString());
        String fault = faults.faults().get(0);
        assertTrue(fault.contains("Broker 7") && fault.contains("ReplicaManager") && fault.contains("offset 1")
                && fault.contains("disk full"), fault);
        assertEquals(List.of(), later, "nothing is published after a fault");
    }
}
