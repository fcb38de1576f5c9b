package io.kraft.broker.group;

import io.kraft.broker.group.GroupApi.CommitRequest;
import io.kraft.broker.group.GroupApi.DescribedGroup;
import io.kraft.broker.group.GroupApi.HeartbeatRequest;
import io.kraft.broker.group.GroupApi.JoinRequest;
import io.kraft.broker.group.GroupApi.JoinResult;
import io.kraft.broker.group.GroupApi.LeaveResult;
import io.kraft.broker.group.GroupApi.LeavingMember;
import io.kraft.broker.group.GroupApi.ListGroupsResult;
import io.kraft.broker.group.GroupApi.OffsetDeleteResult;
import io.kraft.broker.group.GroupApi.OffsetFetchResult;
import io.kraft.broker.group.GroupApi.SyncRequest;
import io.kraft.broker.group.GroupApi.SyncResult;
import io.kraft.broker.group.GroupApi.TxnCommitRequest;
import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.broker.group.consumer.ConsumerGroupView;
import io.kraft.broker.group.consumer.ConsumerHeartbeat;
import io.kraft.broker.group.consumer.TopicCatalog;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The thread-safe front of the {@link GroupCoordinator}: every call becomes an event on the coordinator's own
 * thread and answers with a future (JoinGroup and SyncGroup futures complete when the rebalance does), so
 * request handlers never block.
 */
public final class GroupCoordinatorService implements CoordinatorShards, AutoCloseable {
    private final EventLoopTimer loop;
    private final Set<Integer> ledPartitions = ConcurrentHashMap.newKeySet();
    private final GroupCoordinator coordinator;

    public GroupCoordinatorService(GroupConfig config, CoordinatorLog log, Predicate<OffsetKey> partitionExists) {
        this(config, ConsumerGroupConfig.defaults(), TopicCatalog.EMPTY, log, partitionExists);
    }

    /** @param topics the topics of the metadata image, for consumer-protocol groups (KIP-848) */
    public GroupCoordinatorService(GroupConfig config, ConsumerGroupConfig consumerConfig, TopicCatalog topics,
                                   CoordinatorLog log, Predicate<OffsetKey> partitionExists) {
        this.loop = new EventLoopTimer("kraft-group-coordinator");
        this.coordinator = new GroupCoordinator(config, consumerConfig, topics, loop, log, partitionExists);
        loop.execute(coordinator::scheduleOffsetExpiry);
    }

    // ---- leadership (from metadata) -------------------------------------------------------------

    @Override
    public void onElected(int partition, int leaderEpoch) {
        ledPartitions.add(partition);
        loop.execute(() -> coordinator.onElected(partition, leaderEpoch));
    }

    @Override
    public void onResigned(int partition) {
        ledPartitions.remove(partition);
        loop.execute(() -> coordinator.onResigned(partition));
    }

    /**
     * Whether this coordinator has been told it leads {@code partition}; requests for its groups queued from now
     * on are served after the partition's load has started (any thread).
     */
    public boolean leads(int partition) {
        return ledPartitions.contains(partition);
    }

    @Override
    public void partitionCount(int count) {
        loop.execute(() -> coordinator.partitionCount(count));
    }

    /** Hands {@code sink} the coordinator's {@link GroupCounts} now and every {@code intervalMs} after (metrics). */
    public void reportCounts(long intervalMs, Consumer<GroupCounts> sink) {
        loop.execute(() -> reportCountsNow(intervalMs, sink));
    }

    private void reportCountsNow(long intervalMs, Consumer<GroupCounts> sink) {
        sink.accept(coordinator.counts());
        loop.schedule(intervalMs, () -> reportCountsNow(intervalMs, sink));
    }

    // ---- requests -----------------------------------------------------------------------------------

    public CompletableFuture<JoinResult> joinGroup(JoinRequest request) {
        return async(done -> coordinator.joinGroup(request, done));
    }

    public CompletableFuture<SyncResult> syncGroup(SyncRequest request) {
        return async(done -> coordinator.syncGroup(request, done));
    }

    public CompletableFuture<Errors> heartbeat(HeartbeatRequest request) {
        return call(c -> c.heartbeat(request));
    }

    public CompletableFuture<LeaveResult> leaveGroup(String groupId, List<LeavingMember> members) {
        return call(c -> c.leaveGroup(groupId, members));
    }

    public CompletableFuture<ConsumerHeartbeat.Result> consumerGroupHeartbeat(ConsumerHeartbeat request) {
        return async(done -> coordinator.consumerGroupHeartbeat(request, done));
    }

    public CompletableFuture<Map<OffsetKey, Errors>> commitOffsets(CommitRequest request) {
        return async(done -> coordinator.commitOffsets(request, done));
    }

    public CompletableFuture<Map<OffsetKey, Errors>> commitTransactionalOffsets(TxnCommitRequest request) {
        return async(done -> coordinator.commitTransactionalOffsets(request, done));
    }

    /**
     * A transaction marker of {@code producerId} was written to {@code __consumer_offsets} partition
     * {@code partition} (any thread): its offsets there become committed or are dropped.
     */
    public void onTransactionCompleted(int partition, long producerId, boolean committed) {
        loop.execute(() -> coordinator.completeTransaction(partition, producerId, committed));
    }

    public CompletableFuture<OffsetFetchResult> fetchOffsets(String groupId, List<OffsetKey> partitions,
                                                             boolean requireStable) {
        return call(c -> c.fetchOffsets(groupId, partitions, requireStable));
    }

    public CompletableFuture<ListGroupsResult> listGroups(Set<GroupState> states) {
        return call(c -> c.listGroups(states));
    }

    public CompletableFuture<DescribedGroup> describeGroup(String groupId) {
        return call(c -> c.describeGroup(groupId));
    }

    public CompletableFuture<ConsumerGroupView> describeConsumerGroup(String groupId) {
        return call(c -> c.describeConsumerGroup(groupId));
    }

    public CompletableFuture<Errors> deleteGroup(String groupId) {
        return async(done -> coordinator.deleteGroup(groupId, done));
    }

    public CompletableFuture<OffsetDeleteResult> deleteOffsets(String groupId, List<OffsetKey> partitions) {
        return async(done -> coordinator.deleteOffsets(groupId, partitions, done));
    }

    private <T> CompletableFuture<T> call(Function<GroupCoordinator, T> operation) {
        return async(done -> done.accept(operation.apply(coordinator)));
    }

    private <T> CompletableFuture<T> async(Consumer<Consumer<T>> operation) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                operation.accept(answer::complete);
            } catch (RuntimeException e) {
                answer.completeExceptionally(e);
            }
        });
        return answer;
    }

    /** Stops the coordinator thread; calls still waiting never complete, as their connections close too. */
    @Override
    public void close() {
        loop.close();
    }
}
