package io.kraft.broker.group.share.state;

import io.kraft.broker.concurrent.ExecutorShutdown;
import io.kraft.broker.group.CoordinatorLog;
import io.kraft.broker.group.CoordinatorLogException;
import io.kraft.broker.group.CoordinatorRecord;
import io.kraft.broker.group.CoordinatorShards;
import io.kraft.broker.group.share.SharePartition;
import io.kraft.broker.group.share.SharePartitionKey;
import io.kraft.broker.protocol.LogText;
import io.kraft.storage.errors.Errors;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The share coordinator (KIP-932) of the {@code __share_group_state} partitions this broker leads: it replays a
 * partition into memory when elected, answers reads from memory, and appends each write as a full snapshot record,
 * answering once the record is committed. All state lives on one thread ({@code kraft-share-state}).
 */
public final class ShareStateCoordinator implements CoordinatorShards, ShareStatePersister, AutoCloseable {
    /** The topic's name, as Kafka's. */
    public static final String TOPIC = "__share_group_state";
    private static final Logger LOG = LoggerFactory.getLogger(ShareStateCoordinator.class);

    /** One led state partition: its leader epoch, whether it is still loading, the states it holds. */
    private static final class StatePartition {
        final int leaderEpoch;
        boolean loading = true;
        final Map<SharePartitionKey, SharePartition.Snapshot> states = new HashMap<>();
        /** The highest data-partition leader epoch seen per key: older leaders are fenced (in memory only). */
        final Map<SharePartitionKey, Integer> dataLeaderEpochs = new HashMap<>();

        StatePartition(int leaderEpoch) {
            this.leaderEpoch = leaderEpoch;
        }
    }

    private final CoordinatorLog log;
    private final ExecutorService thread;
    private final Map<Integer, StatePartition> led = new HashMap<>();
    private volatile int partitionCount;

    public ShareStateCoordinator(CoordinatorLog log, int partitionCount) {
        this.log = log;
        this.partitionCount = partitionCount;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "kraft-share-state");
            t.setDaemon(true);
            return t;
        });
    }

    /** The state partition of {@code key} among {@code partitions}: a hash of group, topic id and partition. */
    public static int partitionFor(SharePartitionKey key, int partitions) {
        String name = key.groupId() + ":" + key.topicId() + ":" + key.partition();
        return Math.floorMod(name.hashCode(), partitions);
    }

    public int partitionFor(SharePartitionKey key) {
        return partitionFor(key, partitionCount);
    }

    @Override
    public void partitionCount(int count) {
        this.partitionCount = count;
    }

    @Override
    public void onElected(int partition, int leaderEpoch) {
        thread.execute(() -> {
            StatePartition state = new StatePartition(leaderEpoch);
            led.put(partition, state);
            log.readAll(partition).whenCompleteAsync((entries, failure) -> {
                if (led.get(partition) != state) {
                    return;
                }
                if (failure != null) {
                    led.remove(partition);
                    LOG.warn("Could not load {}-{} at leader epoch {}: {}", TOPIC, partition, leaderEpoch,
                            cause(failure).toString());
                    return;
                }
                ShareStateReplay replay = new ShareStateReplay();
                replay.replay(entries);
                state.states.putAll(replay.states());
                state.loading = false;
                LOG.info("Loaded {}-{} at leader epoch {}: {} share partitions", TOPIC, partition, leaderEpoch,
                        state.states.size());
            }, thread);
        });
    }

    @Override
    public void onResigned(int partition) {
        thread.execute(() -> {
            if (led.remove(partition) != null) {
                LOG.info("Resigned {}-{}", TOPIC, partition);
            }
        });
    }

    @Override
    public CompletableFuture<ReadResult> read(SharePartitionKey key, int leaderEpoch) {
        return CompletableFuture.supplyAsync(() -> {
            StatePartition state = led.get(partitionFor(key));
            Errors error = check(state, key, leaderEpoch);
            if (error != Errors.NONE) {
                return new ReadResult(error, null);
            }
            state.dataLeaderEpochs.merge(key, leaderEpoch, Math::max);
            return new ReadResult(Errors.NONE, state.states.get(key));
        }, thread);
    }

    @Override
    public CompletableFuture<Errors> write(SharePartitionKey key, int leaderEpoch, SharePartition.Snapshot snapshot) {
        return CompletableFuture.supplyAsync(() -> {
            int partition = partitionFor(key);
            StatePartition state = led.get(partition);
            Errors error = check(state, key, leaderEpoch);
            if (error != Errors.NONE) {
                return CompletableFuture.completedFuture(error);
            }
            state.dataLeaderEpochs.merge(key, leaderEpoch, Math::max);
            return log.append(partition, state.leaderEpoch, List.of(new CoordinatorRecord.ShareSnapshot(key, snapshot)))
                    .handleAsync((done, failure) -> {
                        if (failure != null) {
                            Errors e = cause(failure) instanceof CoordinatorLogException cle ? cle.error()
                                    : Errors.COORDINATOR_NOT_AVAILABLE;
                            LOG.info("State write of share partition {}-{} of group {} failed: {}", key.topicId(),
                                    key.partition(), LogText.of(key.groupId()), e);
                            return e;
                        }
                        if (led.get(partition) == state && snapshot == null) {
                            state.states.remove(key);
                        } else if (led.get(partition) == state) {
                            state.states.put(key, snapshot);
                        }
                        return Errors.NONE;
                    }, thread);
        }, thread).thenCompose(f -> f);
    }

    /** NONE when {@code state} can serve {@code key} for a data leader at {@code leaderEpoch}, else Kafka's error. */
    private static Errors check(StatePartition state, SharePartitionKey key, int leaderEpoch) {
        if (state == null) {
            return Errors.NOT_COORDINATOR;
        }
        if (state.loading) {
            return Errors.COORDINATOR_LOAD_IN_PROGRESS;
        }
        Integer seen = state.dataLeaderEpochs.get(key);
        return seen != null && leaderEpoch < seen ? Errors.FENCED_LEADER_EPOCH : Errors.NONE;
    }

    private static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    @Override
    public void close() {
        ExecutorShutdown.now(thread, Duration.ofSeconds(5));
    }
}
