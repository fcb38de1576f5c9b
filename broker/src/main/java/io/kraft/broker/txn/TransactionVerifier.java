package io.kraft.broker.txn;

import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.image.TransactionMetadata;
import io.kraft.metadata.image.TransactionState;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A leader's check of a transactional Produce (KIP-890 part 1, which prevents hanging transactions): the partition
 * must be in the producer's open transaction, at the producer id and epoch of the batch. The answer comes from this
 * broker's metadata image, which holds the coordinator's state; since the producer adds the partition before it
 * sends, an image that does not show it yet is only behind the controller by a few records, so a produce waits (up to
 * {@code maxWaitMs}) for an image that does before it is refused.
 */
public final class TransactionVerifier implements MetadataPublisher {
    /** A produce waiting for an image that meets its condition (its partition in the transaction, say). */
    private record Waiter(Predicate<MetadataImage> condition, CompletableFuture<Boolean> verified) {
    }

    /**
     * How long a check waits after the coordinator has answered that it added the partition: the image will show the
     * add, only a loaded node takes longer than {@code maxWaitMs} to apply it, and refusing then would fail a producer
     * whose add succeeded (INVALID_TXN_STATE is fatal to it).
     */
    public static final long AFTER_ADD_MAX_WAIT_MS = 15_000;

    private final long maxWaitMs;
    private volatile MetadataImage image = MetadataImage.EMPTY;
    private final List<Waiter> waiters = new ArrayList<>();

    public TransactionVerifier(long maxWaitMs) {
        this.maxWaitMs = maxWaitMs;
    }

    /**
     * Completes with true once the image shows {@code topic}-{@code partition} in the open transaction of the id at that
     * producer id and epoch, with false if it does not within the wait.
     */
    public CompletableFuture<Boolean> verify(String transactionalId, long producerId, short producerEpoch,
                                             String topic, int partition) {
        return verify(transactionalId, producerId, producerEpoch, topic, partition, maxWaitMs);
    }

    /** As {@link #verify(String, long, short, String, int)}, for a partition the coordinator has just added. */
    public CompletableFuture<Boolean> verifyAdded(String transactionalId, long producerId, short producerEpoch,
                                                  String topic, int partition) {
        return verify(transactionalId, producerId, producerEpoch, topic, partition, AFTER_ADD_MAX_WAIT_MS);
    }

    private CompletableFuture<Boolean> verify(String transactionalId, long producerId, short producerEpoch,
                                              String topic, int partition, long waitMs) {
        Objects.requireNonNull(transactionalId, "transactionalId");
        return await(image -> inTransaction(image, transactionalId, producerId, producerEpoch, topic, partition),
                waitMs);
    }

    /**
     * Completes with true once the image shows the id with no decided transaction still writing its markers (or not
     * at all), with false if that does not come within {@code waitMs}. A version 2 producer's next transaction waits
     * for this before its partitions can be added (KIP-890 part 2).
     */
    public CompletableFuture<Boolean> awaitSettled(String transactionalId, long waitMs) {
        Objects.requireNonNull(transactionalId, "transactionalId");
        return await(image -> {
            TransactionMetadata txn = image.transactions().transaction(transactionalId);
            return txn == null || !txn.state().isPrepare();
        }, waitMs);
    }

    private CompletableFuture<Boolean> await(Predicate<MetadataImage> condition, long waitMs) {
        if (condition.test(image)) {
            return CompletableFuture.completedFuture(true);
        }
        Waiter waiter = new Waiter(condition, new CompletableFuture<>());
        synchronized (waiters) {
            waiters.add(waiter);
        }
        // Checked again after registering: an image published in between would otherwise be missed.
        if (condition.test(image)) {
            waiter.verified().complete(true);
        }
        waiter.verified().completeOnTimeout(false, waitMs, TimeUnit.MILLISECONDS)
                .whenComplete((ok, error) -> {
                    synchronized (waiters) {
                        waiters.remove(waiter);
                    }
                });
        return waiter.verified();
    }

    /** Whether this broker's image shows the partition in the id's open transaction at that producer id and epoch. */
    public boolean isInTransaction(String transactionalId, long producerId, short producerEpoch, String topicName,
                                   int partition) {
        return inTransaction(image, transactionalId, producerId, producerEpoch, topicName, partition);
    }

    /** Whether the partition is in the id's open transaction at that producer id and epoch, in {@code image}. */
    public static boolean inTransaction(MetadataImage image, String transactionalId, long producerId,
                                        short producerEpoch, String topicName, int partition) {
        TransactionMetadata txn = image.transactions().transaction(transactionalId);
        if (txn == null || txn.state() != TransactionState.ONGOING || txn.producerId() != producerId
                || txn.producerEpoch() != producerEpoch) {
            return false;
        }
        TopicImage topic = image.topics().topic(topicName);
        return topic != null && txn.partitions().contains(new TopicIdPartition(topic.id(), partition));
    }

    /**
     * Whether this broker's image already shows the producer fenced: the id has the same producer id at a newer epoch.
     * Waiting for a newer image cannot change that answer.
     */
    public boolean isFenced(String transactionalId, long producerId, short producerEpoch) {
        TransactionMetadata txn = image.transactions().transaction(transactionalId);
        return txn != null && txn.producerId() == producerId && txn.producerEpoch() > producerEpoch;
    }

    /**
     * Why the id's transaction, as this broker's image shows it now, is not one the producer may write in: its epoch
     * is stale or another producer id has the transactional id (INVALID_PRODUCER_EPOCH: the producer was fenced), the
     * id is unknown (INVALID_PRODUCER_ID_MAPPING), or no transaction is open with that partition (INVALID_TXN_STATE).
     */
    public Errors refusal(String transactionalId, long producerId, short producerEpoch) {
        TransactionMetadata txn = image.transactions().transaction(transactionalId);
        if (txn == null) {
            return Errors.INVALID_PRODUCER_ID_MAPPING;
        }
        boolean sameProducer = txn.producerId() == producerId && txn.producerEpoch() == producerEpoch;
        return sameProducer ? Errors.INVALID_TXN_STATE : Errors.INVALID_PRODUCER_EPOCH;
    }

    @Override
    public void publish(MetadataDelta delta, MetadataImage newImage) {
        image = newImage;
        if (!delta.hasTransactionChanges() && !delta.hasTopicChanges()) {
            return;
        }
        List<Waiter> due = new ArrayList<>();
        synchronized (waiters) {
            for (Waiter waiter : waiters) {
                if (waiter.condition().test(newImage)) {
                    due.add(waiter);
                }
            }
        }
        due.forEach(waiter -> waiter.verified().complete(true));
    }
}
