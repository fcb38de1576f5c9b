package io.kraft.broker.group;

import io.kraft.storage.errors.Errors;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link CoordinatorLog} in memory for tests: batches are kept with their records encoded (so every test also
 * exercises the record layouts) per partition, transactional ones with their producer, beside the markers a test
 * writes; appends commit at once unless the log is told to hold or fail them.
 */
final class InMemoryCoordinatorLog implements CoordinatorLog {
    /** A stored batch (producer -1 when plain) or, with no records, a marker. */
    private record Entry(long producerId, List<ByteBuffer[]> records, Boolean committed) {
    }

    private final Map<Integer, List<Entry>> partitions = new HashMap<>();
    private final List<Runnable> held = new ArrayList<>();
    private boolean holdAppends;
    private Errors failWith;
    private int appends;

    @Override
    public CompletableFuture<Void> append(int partition, int leaderEpoch, List<CoordinatorRecord> records) {
        return store(partition, CoordinatorLogEntry.NO_PRODUCER, records);
    }

    @Override
    public CompletableFuture<Void> appendTransactional(int partition, int leaderEpoch, long producerId,
                                                       short producerEpoch, List<CoordinatorRecord> records) {
        return store(partition, producerId, records);
    }

    private synchronized CompletableFuture<Void> store(int partition, long producerId, List<CoordinatorRecord> records) {
        appends++;
        if (failWith != null) {
            return CompletableFuture.failedFuture(new CoordinatorLogException(failWith, "append refused by the test"));
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        Runnable commit = () -> {
            List<ByteBuffer[]> encoded = new ArrayList<>();
            for (CoordinatorRecord record : records) {
                encoded.add(new ByteBuffer[] {CoordinatorRecordCodec.encodeKey(record),
                        CoordinatorRecordCodec.encodeValue(record)});
            }
            partitions.computeIfAbsent(partition, p -> new ArrayList<>()).add(new Entry(producerId, encoded, null));
            done.complete(null);
        };
        if (holdAppends) {
            held.add(commit);
        } else {
            commit.run();
        }
        return done;
    }

    /** Writes the producer's transaction marker to the partition, as a transaction coordinator would. */
    synchronized void writeMarker(int partition, long producerId, boolean committed) {
        partitions.computeIfAbsent(partition, p -> new ArrayList<>()).add(new Entry(producerId, List.of(), committed));
    }

    @Override
    public synchronized CompletableFuture<List<CoordinatorLogEntry>> readAll(int partition) {
        List<CoordinatorLogEntry> entries = new ArrayList<>();
        for (Entry entry : partitions.getOrDefault(partition, List.of())) {
            if (entry.committed() != null) {
                entries.add(new CoordinatorLogEntry.Marker(entry.producerId(), entry.committed()));
                continue;
            }
            List<CoordinatorRecord> records = new ArrayList<>();
            for (ByteBuffer[] record : entry.records()) {
                records.add(CoordinatorRecordCodec.decode(record[0], record[1]));
            }
            entries.add(new CoordinatorLogEntry.Records(entry.producerId(), records));
        }
        return CompletableFuture.completedFuture(entries);
    }

    /** From now on appends wait for {@link #releaseHeld}. */
    synchronized void holdAppends(boolean hold) {
        this.holdAppends = hold;
    }

    synchronized void releaseHeld() {
        List<Runnable> toRun = new ArrayList<>(held);
        held.clear();
        toRun.forEach(Runnable::run);
    }

    /** From now on appends fail with {@code error} (null: succeed again). */
    synchronized void failAppends(Errors error) {
        this.failWith = error;
    }

    synchronized int appendCount() {
        return appends;
    }

    /** Every record of the partition in order, plain and transactional alike. */
    synchronized List<CoordinatorRecord> records(int partition) {
        List<CoordinatorRecord> records = new ArrayList<>();
        for (CoordinatorLogEntry entry : readAll(partition).join()) {
            if (entry instanceof CoordinatorLogEntry.Records batch) {
                records.addAll(batch.records());
            }
        }
        return records;
    }
}
