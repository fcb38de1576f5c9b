package io.kraft.broker.txn;

import io.kraft.broker.api.txn.TransactionErrors;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.TransactionControlManager;
import io.kraft.storage.errors.Errors;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Transaction protocol version 2 (KIP-890 part 2): a producer no longer adds partitions or its group to its
 * transaction itself; the partition leader does, on the producer's first transactional Produce (v12+) to a partition,
 * and the group coordinator on TxnOffsetCommit (v5+). Since a version 2 producer starts its next transaction as soon as
 * EndTxn answers, the coordinator may still be writing the previous one's markers (CONCURRENT_TRANSACTIONS): the add
 * waits for this broker's image to show that transaction complete, then tries again, within the verifier's wait.
 */
public final class ImplicitTransactionAdds {
    /** The least pause between two attempts, so an image that is behind the controller causes no busy loop. */
    static final long RETRY_BACKOFF_MS = 10;

    private final Controller controller;
    private final TransactionVerifier verifier;
    private final long maxWaitMs;
    private final LongSupplier clock;

    public ImplicitTransactionAdds(Controller controller, TransactionVerifier verifier, long maxWaitMs,
                                   LongSupplier clock) {
        this.controller = Objects.requireNonNull(controller, "controller");
        this.verifier = Objects.requireNonNull(verifier, "verifier");
        this.maxWaitMs = maxWaitMs;
        this.clock = clock;
    }

    /**
     * Adds the partitions (topic name to partition ids) to the producer's transaction, which opens as a version 2
     * transaction if none is; answers the coordinator's error per topic and partition (all NONE when added).
     */
    public CompletableFuture<Map<String, Map<Integer, Errors>>> addPartitions(
            String transactionalId, long producerId, short producerEpoch, Map<String, List<Integer>> partitions) {
        return attempt(transactionalId, clock.getAsLong() + maxWaitMs,
                () -> controller.addPartitionsToTransaction(transactionalId, producerId, producerEpoch, partitions,
                        TransactionControlManager.TRANSACTION_VERSION_2),
                errors -> errors.values().stream().flatMap(p -> p.values().stream())
                        .filter(e -> e != Errors.NONE).findFirst().orElse(Errors.NONE),
                error -> {
                    Map<String, Map<Integer, Errors>> all = new LinkedHashMap<>();
                    partitions.forEach((topic, ids) -> {
                        Map<Integer, Errors> byPartition = new LinkedHashMap<>();
                        ids.forEach(id -> byPartition.put(id, error));
                        all.put(topic, byPartition);
                    });
                    return all;
                });
    }

    /** Adds the group's offsets partition to the producer's transaction; answers the coordinator's error. */
    public CompletableFuture<Errors> addGroup(String transactionalId, long producerId, short producerEpoch,
                                              String groupId, String offsetsTopic, int offsetsPartition) {
        return attempt(transactionalId, clock.getAsLong() + maxWaitMs,
                () -> controller.addOffsetsToTransaction(transactionalId, producerId, producerEpoch, groupId,
                        offsetsTopic, offsetsPartition, TransactionControlManager.TRANSACTION_VERSION_2)
                        .thenApply(ignored -> Errors.NONE),
                error -> error, error -> error);
    }

    private <T> CompletableFuture<T> attempt(String transactionalId, long deadlineMs,
                                             Supplier<CompletableFuture<T>> call,
                                             Function<T, Errors> errorOf,
                                             Function<Errors, T> failed) {
        return call.get().handle((answer, failure) -> answer != null ? answer
                        : failed.apply(TransactionErrors.of(failure)))
                .thenCompose(answer -> {
                    long remainingMs = deadlineMs - clock.getAsLong();
                    if (errorOf.apply(answer) != Errors.CONCURRENT_TRANSACTIONS || remainingMs <= 0) {
                        return CompletableFuture.completedFuture(answer);
                    }
                    // The producer's previous transaction is still writing its markers.
                    Executor later = CompletableFuture.delayedExecutor(RETRY_BACKOFF_MS, TimeUnit.MILLISECONDS);
                    return CompletableFuture.supplyAsync(() -> null, later)
                            .thenCompose(ignored -> verifier.awaitSettled(transactionalId, remainingMs))
                            .thenCompose(ignored -> attempt(transactionalId, deadlineMs, call, errorOf, failed));
                });
    }
}
