package io.kraft.broker.replica;

import io.kraft.metadata.controller.AlterPartitionRequest;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.storage.log.TopicPartition;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A leader's ISR changes: expansions when a follower catches up, shrinks (checked every half
 * {@code replica.lag.time.max.ms}) when one falls behind, each proposed to the active controller through
 * AlterPartition and applied to the {@link Partition} once the controller answers.
 */
final class IsrProposals implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IsrProposals.class);

    private final int brokerId;
    private final ReplicationConfig config;
    private final Function<AlterPartitionRequest, CompletableFuture<PartitionRegistration>> alterPartition;
    private final LongSupplier brokerEpoch;
    private final LongSupplier clock;
    private final Supplier<MetadataImage> image;
    /** Told of a partition whose committed ISR change may let waiting requests complete. */
    private final Consumer<TopicPartition> onIsrChanged;
    private ScheduledExecutorService shrinkChecks;

    IsrProposals(int brokerId, ReplicaManager.Replication replication, LongSupplier clock,
                 Supplier<MetadataImage> image, Consumer<TopicPartition> onIsrChanged) {
        this.brokerId = brokerId;
        this.config = replication.config();
        this.alterPartition = replication.alterPartition();
        this.brokerEpoch = replication.brokerEpoch();
        this.clock = clock;
        this.image = image;
        this.onIsrChanged = onIsrChanged;
    }

    /** Checks the ISRs of {@code partitions} for lagging followers every half {@code replica.lag.time.max.ms}. */
    synchronized void start(Supplier<Collection<Partition>> partitions) {
        shrinkChecks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "kraft-isr-shrink-" + brokerId);
            thread.setDaemon(true);
            return thread;
        });
        long periodMs = Math.max(1, config.lagTimeMaxMs() / 2);
        shrinkChecks.scheduleAtFixedRate(() -> maybeShrink(partitions.get()), periodMs, periodMs,
                TimeUnit.MILLISECONDS);
    }

    /** A follower of {@code partition} fetched: propose adding it to the ISR if it caught up. */
    void maybeExpand(Partition partition, int replicaId, long nowMs) {
        partition.maybeExpandIsr(replicaId, this::isUsableReplica, nowMs).ifPresent(change -> propose(partition, change));
    }

    /** Proposes removing lagging followers from the ISR of every partition this broker leads. */
    void maybeShrink(Collection<Partition> partitions) {
        try {
            long nowMs = clock.getAsLong();
            for (Partition partition : partitions) {
                partition.maybeShrinkIsr(nowMs, config.lagTimeMaxMs()).ifPresent(change -> propose(partition, change));
            }
        } catch (RuntimeException e) {
            LOG.error("Broker {} could not check its ISRs", brokerId, e);
        }
    }

    /**
     * A broker that may join an ISR: registered, unfenced and not shutting down, as far as this broker knows, and
     * (KIP-903) the incarnation that fetched is the registered one: a restarted broker may have lost what its earlier
     * incarnation had. A fetch without an epoch (-1) is not checked here; the controller has the last word.
     */
    private boolean isUsableReplica(int replicaId, long fetchBrokerEpoch) {
        BrokerRegistration broker = image.get().cluster().broker(replicaId);
        return broker != null && !broker.fenced() && !broker.inControlledShutdown()
                && (fetchBrokerEpoch < 0 || fetchBrokerEpoch == broker.epoch());
    }

    private void propose(Partition partition, IsrChange change) {
        TopicPartition tp = change.topicPartition();
        PartitionRegistration current = partition.registration();
        LOG.info("Broker {} proposes ISR {} for {} (was {})", brokerId, change.newIsr(), tp,
                current == null ? List.of() : current.isr());
        CompletableFuture<PartitionRegistration> answer;
        try {
            answer = alterPartition.apply(new AlterPartitionRequest(brokerId, brokerEpoch.getAsLong(), change.topicId(),
                    tp.partition(), change.leaderEpoch(), change.newIsr(), change.partitionEpoch(),
                    change.newIsrBrokerEpochs()));
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((registration, error) -> {
            if (error != null) {
                LOG.info("Broker {}: the ISR change {} of {} was refused: {}", brokerId, change.newIsr(), tp,
                        error.getMessage());
            }
            if (partition.completeIsrChange(change, Optional.ofNullable(error == null ? registration : null),
                    clock.getAsLong())) {
                onIsrChanged.accept(tp);
            }
        });
    }

    @Override
    public synchronized void close() {
        if (shrinkChecks != null) {
            shrinkChecks.shutdownNow();
        }
    }
}
