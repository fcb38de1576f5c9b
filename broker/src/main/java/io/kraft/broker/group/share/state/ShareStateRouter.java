package io.kraft.broker.group.share.state;

import io.kraft.broker.group.InternalTopic;
import io.kraft.broker.group.share.SharePartition;
import io.kraft.broker.group.share.SharePartitionKey;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.errors.Errors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The data partition leader's persister: finds the leader of the key's {@code __share_group_state} partition in
 * the metadata image (creating the topic on first use), asks this broker's own share coordinator directly or
 * another broker's over the wire, and retries while the coordinator moves or loads (NOT_COORDINATOR,
 * COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_LEADER_OR_FOLLOWER) until the write timeout.
 */
public final class ShareStateRouter implements ShareStatePersister {
    /** How long to wait before asking again after a retriable answer. */
    static final long RETRY_BACKOFF_MS = 100;

    private final int localBrokerId;
    private final Supplier<MetadataImage> images;
    private final InternalTopic stateTopic;
    private final ShareStateCoordinator local;
    private final RemoteShareState remote;
    private final ScheduledExecutorService retries;
    private final long timeoutMs;
    private final LongSupplier clockMs;

    public ShareStateRouter(int localBrokerId, Supplier<MetadataImage> images, InternalTopic stateTopic,
                            ShareStateCoordinator local, RemoteShareState remote, ScheduledExecutorService retries,
                            long timeoutMs, LongSupplier clockMs) {
        this.localBrokerId = localBrokerId;
        this.images = images;
        this.stateTopic = stateTopic;
        this.local = local;
        this.remote = remote;
        this.retries = retries;
        this.timeoutMs = timeoutMs;
        this.clockMs = clockMs;
    }

    @Override
    public CompletableFuture<ReadResult> read(SharePartitionKey key, int leaderEpoch) {
        CompletableFuture<ReadResult> result = new CompletableFuture<>();
        long deadline = clockMs.getAsLong() + timeoutMs;
        attempt(() -> route(key, coordinator -> coordinator == localBrokerId ? local.read(key, leaderEpoch)
                        : remote.read(coordinator, key, leaderEpoch), error -> new ReadResult(error, null)),
                ReadResult::error, deadline, result);
        return result;
    }

    @Override
    public CompletableFuture<Errors> write(SharePartitionKey key, int leaderEpoch, SharePartition.Snapshot snapshot) {
        CompletableFuture<Errors> result = new CompletableFuture<>();
        long deadline = clockMs.getAsLong() + timeoutMs;
        attempt(() -> route(key, coordinator -> coordinator == localBrokerId ? local.write(key, leaderEpoch, snapshot)
                        : remote.write(coordinator, key, leaderEpoch, snapshot), error -> error),
                error -> error, deadline, result);
        return result;
    }

    private <T> void attempt(Supplier<CompletableFuture<T>> call, java.util.function.Function<T, Errors> errorOf,
                             long deadline, CompletableFuture<T> result) {
        call.get().whenComplete((answer, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failure);
                return;
            }
            if (retriable(errorOf.apply(answer)) && clockMs.getAsLong() + RETRY_BACKOFF_MS < deadline) {
                retries.schedule(() -> attempt(call, errorOf, deadline, result), RETRY_BACKOFF_MS,
                        TimeUnit.MILLISECONDS);
            } else {
                result.complete(answer);
            }
        });
    }

    /** Calls the coordinator of {@code key}'s state partition, or answers why there is none to call. */
    private <T> CompletableFuture<T> route(SharePartitionKey key,
                                           java.util.function.IntFunction<CompletableFuture<T>> callCoordinator,
                                           java.util.function.Function<Errors, T> noCoordinator) {
        TopicImage topic = images.get().topics().topic(ShareStateCoordinator.TOPIC);
        if (topic == null || topic.partitions().isEmpty()) {
            stateTopic.createIfAbsent();
            return CompletableFuture.completedFuture(noCoordinator.apply(Errors.COORDINATOR_NOT_AVAILABLE));
        }
        PartitionRegistration partition = topic.partition(
                ShareStateCoordinator.partitionFor(key, topic.partitions().size()));
        if (partition == null || partition.leader() < 0) {
            return CompletableFuture.completedFuture(noCoordinator.apply(Errors.COORDINATOR_NOT_AVAILABLE));
        }
        return callCoordinator.apply(partition.leader());
    }

    static boolean retriable(Errors error) {
        return switch (error) {
            case NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_LEADER_OR_FOLLOWER -> true;
            default -> false;
        };
    }
}
