package io.kraft.server.bench;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.store.MetadataStateStore;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.TopicRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Side by side, in one JVM, the two ways a node turns its RocksDB state into an image when it loads a snapshot: the
 * records way (every partition read as a record and replayed into a delta) and the bulk way (each topic's partitions
 * read straight into one map, {@link MetadataStateStore#snapshotDelta()}), alternating for {@code bench.runs} runs
 * over a state of {@code bench.totalPartitions} partitions (topics of 10 partitions, 3 replicas), read from a
 * checkpoint of the store as a node reads a snapshot ({@code bench.compare=false}: the bulk way only). Not a test; run
 * from the repository's root: {@code mvn -B -q -pl server -am -Psnapshot-bench test-compile exec:exec
 * -Dbench.totalPartitions=1000000 -Dbench.jvmArgs=-Xmx4g}.
 */
public final class SnapshotLoadBenchmark {
    private static final int PARTITIONS_PER_TOPIC = 10;

    public static void main(String[] args) throws Exception {
        int totalPartitions = Integer.getInteger("bench.totalPartitions", 100_000);
        int runs = Integer.getInteger("bench.runs", 3);
        // false: only the bulk way, e.g. to profile it alone
        boolean compare = Boolean.parseBoolean(System.getProperty("bench.compare", "true"));
        Path dir = Files.createTempDirectory("kraft-snapshot-bench");
        // A node loads a checkpoint (memtables flushed), not the store it wrote: load what a snapshot holds.
        try (MetadataStateStore written = MetadataStateStore.open(dir.resolve("state"))) {
            fill(written, totalPartitions / PARTITIONS_PER_TOPIC);
            written.checkpoint(dir.resolve("snapshot"));
        }
        try (MetadataStateStore store = MetadataStateStore.open(dir.resolve("snapshot"))) {
            long[] records = new long[runs];
            long[] bulk = new long[runs];
            MetadataImage expected = null;
            for (int run = 0; run < runs; run++) {
                // Each way starts from a collected heap, and they take turns going first.
                for (int turn = 0; turn < 2; turn++) {
                    boolean bulkTurn = !compare || (run + turn) % 2 == 1;
                    System.gc();
                    long started = System.nanoTime();
                    MetadataImage image = bulkTurn ? store.snapshotDelta().apply(store.appliedPosition())
                            : MetadataDelta.fromSnapshot(store.snapshotRecords(), 1).apply(store.appliedPosition());
                    (bulkTurn ? bulk : records)[run] = System.nanoTime() - started;
                    if (expected == null) {
                        expected = image;
                    } else if (!image.equals(expected)) {
                        throw new IllegalStateException("the two ways give different images");
                    }
                }
                if (compare) {
                    System.out.printf("run %d: %,d partitions loaded as records in %,d ms, in bulk in %,d ms%n",
                            run + 1, totalPartitions, records[run] / 1_000_000, bulk[run] / 1_000_000);
                } else {
                    System.out.printf("run %d: %,d partitions loaded in bulk in %,d ms%n", run + 1, totalPartitions,
                            bulk[run] / 1_000_000);
                }
            }
            if (compare) {
                System.out.printf("median: records %,d ms, bulk %,d ms, bulk / records %.2f%n",
                        median(records) / 1_000_000, median(bulk) / 1_000_000,
                        (double) median(bulk) / median(records));
            } else {
                System.out.printf("median: bulk %,d ms%n", median(bulk) / 1_000_000);
            }
        }
        System.exit(0);
    }

    /** Writes {@code topics} topics of 10 partitions each, a thousand topics per batch. */
    private static void fill(MetadataStateStore store, int topics) {
        Random random = new Random(1);
        long offset = 0;
        MetadataImage image = MetadataImage.EMPTY;
        List<MetadataRecord> batch = new ArrayList<>();
        batch.add(MetadataRecords.of(FeatureLevelRecord.newBuilder().setName("metadata.version").setLevel(1).build()));
        for (int t = 0; t < topics; t++) {
            UUID id = new UUID(random.nextLong(), random.nextLong());
            batch.add(MetadataRecords.of(TopicRecord.newBuilder().setName("topic-" + t).setTopicId(Uuids.toProto(id))
                    .build()));
            for (int p = 0; p < PARTITIONS_PER_TOPIC; p++) {
                batch.add(MetadataRecords.of(PartitionRecord.newBuilder().setTopicId(Uuids.toProto(id))
                        .setPartitionId(p).addReplicas(p % 3).addReplicas((p + 1) % 3).addReplicas((p + 2) % 3)
                        .addIsr(p % 3).addIsr((p + 1) % 3).addIsr((p + 2) % 3).setLeader(p % 3).setLeaderEpoch(1)
                        .build()));
            }
            if (batch.size() >= 10_000 || t == topics - 1) {
                MetadataDelta delta = new MetadataDelta(image);
                delta.replayBatch(batch, offset, 1);
                offset += batch.size();
                store.apply(delta);
                image = delta.apply();
                batch = new ArrayList<>();
            }
        }
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
