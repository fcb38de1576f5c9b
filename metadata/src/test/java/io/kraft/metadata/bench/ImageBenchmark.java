package io.kraft.metadata.bench;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.TopicRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The image at a cluster's size (topics x 10 partitions, RF 3): the lookups of the produce and fetch paths (a
 * partition by topic name, a topic by id), over every topic (cold caches) and over a hot set of 1,000 topics; what
 * applying a one-topic delta costs (an ISR change, a new topic); and building the image from snapshot records.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g", "-XX:+UseG1GC"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ImageBenchmark {
    private static final int PARTITIONS_PER_TOPIC = 10;
    private static final int HOT_TOPICS = 1_000;

    @Param({"10000", "100000"})
    public int topics;

    private MetadataImage image;
    private List<MetadataRecord> snapshot;
    private String[] names;
    private UUID[] ids;
    private int next;
    private int nextHot;
    private int nextPartition;
    private long offset;

    @Setup
    public void setUp() {
        Random random = new Random(7);
        names = new String[topics];
        ids = new UUID[topics];
        snapshot = new ArrayList<>(topics * (PARTITIONS_PER_TOPIC + 1));
        for (int t = 0; t < topics; t++) {
            names[t] = "topic-" + t;
            ids[t] = new UUID(random.nextLong() | 1, random.nextLong());
            snapshot.add(MetadataRecords.of(TopicRecord.newBuilder().setName(names[t])
                    .setTopicId(Uuids.toProto(ids[t])).build()));
            for (int p = 0; p < PARTITIONS_PER_TOPIC; p++) {
                List<Integer> replicas = List.of(p % 3, (p + 1) % 3, (p + 2) % 3);
                snapshot.add(MetadataRecords.of(PartitionRecord.newBuilder().setTopicId(Uuids.toProto(ids[t]))
                        .setPartitionId(p).addAllReplicas(replicas).addAllIsr(replicas).setLeader(replicas.get(0))
                        .build()));
            }
        }
        image = MetadataDelta.imageOf(snapshot, new MetadataProvenance(snapshot.size() - 1, 1));
        offset = image.offset();
    }

    private int nextTopic() {
        int t = next;
        next = t + 7919 >= topics ? t + 7919 - topics : t + 7919;
        return t;
    }

    private int nextHotTopic() {
        int t = nextHot;
        nextHot = t + 1 == HOT_TOPICS ? 0 : t + 1;
        return t * (topics / HOT_TOPICS);
    }

    private int nextPartition() {
        int p = nextPartition;
        nextPartition = p + 1 == PARTITIONS_PER_TOPIC ? 0 : p + 1;
        return p;
    }

    /** The produce path's lookup: a topic by name, then a partition. */
    @Benchmark
    public PartitionRegistration partitionByNameAnyTopic() {
        return image.topics().topic(names[nextTopic()]).partition(nextPartition());
    }

    @Benchmark
    public PartitionRegistration partitionByNameHotTopics() {
        return image.topics().topic(names[nextHotTopic()]).partition(nextPartition());
    }

    /** The fetch path's lookup (fetch v13+ names topics by id). */
    @Benchmark
    public TopicImage topicByIdAnyTopic() {
        return image.topics().topic(ids[nextTopic()]);
    }

    @Benchmark
    public TopicImage topicByIdHotTopics() {
        return image.topics().topic(ids[nextHotTopic()]);
    }

    /** One committed batch holding one ISR change: the delta and the next image. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public MetadataImage applyIsrChange() {
        int t = nextTopic();
        MetadataDelta delta = new MetadataDelta(image);
        delta.replay(MetadataRecords.of(PartitionChangeRecord.newBuilder().setTopicId(Uuids.toProto(ids[t]))
                .setPartitionId(nextPartition()).setIsr(BrokerIdList.newBuilder().addBrokerIds(0).addBrokerIds(1))
                .build()), ++offset, 1);
        return delta.apply();
    }

    /** One committed batch creating a topic of 10 partitions. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public MetadataImage applyTopicCreation() {
        MetadataDelta delta = new MetadataDelta(image);
        UUID id = new UUID(++offset, 17);
        delta.replay(MetadataRecords.of(TopicRecord.newBuilder().setName("new-" + offset)
                .setTopicId(Uuids.toProto(id)).build()), offset, 1);
        for (int p = 0; p < PARTITIONS_PER_TOPIC; p++) {
            delta.replay(MetadataRecords.of(PartitionRecord.newBuilder().setTopicId(Uuids.toProto(id))
                    .setPartitionId(p).addReplicas(0).addReplicas(1).addReplicas(2).addIsr(0).addIsr(1).addIsr(2)
                    .setLeader(0).build()), ++offset, 1);
        }
        return delta.apply();
    }

    /** A snapshot's records to an image (what a snapshot load does after reading them). */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2, time = 2)
    @Measurement(iterations = 3, time = 2)
    public MetadataImage loadSnapshotRecords() {
        return MetadataDelta.imageOf(snapshot, new MetadataProvenance(snapshot.size() - 1, 1));
    }
}
