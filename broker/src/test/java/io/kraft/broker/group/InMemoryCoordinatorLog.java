package io.kraft.broker.group;

import io.kraft.storage.errors.Errors;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link CoordinatorLog} in memory for tests: records are kept encoded (so every test also exercises the record
 * layouts) per partition; appends commit at once unless the log is told to hold or fail them.
 */
final class InMemoryCoordinatorLog implements CoordinatorLog {
    private final Map<Integer, List<ByteBuffer[]>> partitions = new HashMap<>();
    private final List<Runnable> held = new ArrayList<>();
    private boolean holdAppends;
    private Errors failWith;
    private int appends;

    @Override
    public synchronized CompletableFuture<Void> append(int partition, int leaderEpoch, List<CoordinatorRecord> records) {
        appends++;
        if (failWith != null) {
            return CompletableFuture.failedFuture(new CoordinatorLogException(failWith, "append refused by the test"));
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        Runnable commit = () -> {
            List<ByteBuffer[]> log = partitions.computeIfAbsent(partition, p -> new ArrayList<>());
            for (CoordinatorRecord record : records) {
                log.add(new ByteBuffer[] {CoordinatorRecordCodec.encodeKey(record),
                        CoordinatorRecordCodec.encodeValue(record)});
            }
            done.complete(null);
        };
        if (holdAppends) {
            held.add(commit);
        } else {
            commit.run();
        }
        return done;
    }

    @Override
    public synchronized CompletableFuture<List<CoordinatorRecord>> readAll(int partition) {
        List<CoordinatorRecord> records = new ArrayList<>();
        for (ByteBuffer[] entry : partitions.getOrDefault(partition, List.of())) {
            records.add(CoordinatorRecordCodec.decode(entry[0], entry[1]));
        }
        return CompletableFuture.completedFuture(records);
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

    synchronized List<CoordinatorRecord> records(int partition) {
        return readAll(partition).join();
    }
}
