package io.kraft.broker.group;

import io.kraft.broker.api.group.FindCoordinatorHandler;
import io.kraft.broker.api.group.GroupHandlers;
import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.broker.network.ApiHandler;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.message.FindCoordinatorRequest;
import io.kraft.broker.protocol.message.FindCoordinatorResponse;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.image.MetadataSource;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.record.ControlRecordType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The group coordinator of one broker, wired: its settings from the node's properties, its
 * {@code __consumer_offsets} partitions through the replica manager (and its leadership changes), and the
 * request handlers of the group APIs. Build it before the metadata log is replayed; close it after the wire
 * server and before the replica manager.
 */
public final class GroupCoordinatorComponents implements AutoCloseable {
    private final ReplicaCoordinatorLog offsetsLog;
    private final GroupCoordinatorService coordinator;
    private final RequestHandler<FindCoordinatorRequest, FindCoordinatorResponse> findCoordinatorHandler;
    private final List<AsyncRequestHandler<?, ?>> asyncHandlers;

    private GroupCoordinatorComponents(ReplicaCoordinatorLog offsetsLog, GroupCoordinatorService coordinator,
                                       RequestHandler<FindCoordinatorRequest, FindCoordinatorResponse> findCoordinatorHandler,
                                       List<AsyncRequestHandler<?, ?>> asyncHandlers) {
        this.offsetsLog = offsetsLog;
        this.coordinator = coordinator;
        this.findCoordinatorHandler = findCoordinatorHandler;
        this.asyncHandlers = asyncHandlers;
    }

    /** @param properties the node's Kafka-named settings (group.*, offsets.*, offset.metadata.max.bytes) */
    public static GroupCoordinatorComponents create(Controller controller, MetadataSource metadata,
                                                    ReplicaManager replicas, Map<String, String> properties) {
        return create(controller, metadata, replicas, properties, () -> CompletableFuture.completedFuture(List.of()));
    }

    /** @param otherGroups the groups ListGroups reports besides this coordinator's (share groups, KIP-932) */
    public static GroupCoordinatorComponents create(Controller controller, MetadataSource metadata,
                                                    ReplicaManager replicas, Map<String, String> properties,
                                                    Supplier<CompletableFuture<List<GroupApi.ListedGroup>>> otherGroups) {
        GroupConfig config = GroupConfig.fromProperties(properties);
        ReplicaCoordinatorLog offsetsLog = new ReplicaCoordinatorLog(replicas, config.offsetsCommitTimeoutMs(),
                System::currentTimeMillis);
        GroupCoordinatorService coordinator = new GroupCoordinatorService(config,
                ConsumerGroupConfig.fromProperties(properties), new ImageTopicCatalog(metadata::image), offsetsLog,
                partition -> {
            TopicImage topic = metadata.image().topics().topic(partition.topic());
            return topic != null && topic.partition(partition.partition()) != null;
        });
        replicas.addLeadershipListener(new OffsetsLeadershipListener(metadata::image, coordinator));
        replicas.addTxnMarkerListener((partition, marker) -> {
            if (partition.topic().equals(OffsetsTopic.NAME)) {
                coordinator.onTransactionCompleted(partition.partition(), marker.producerId(),
                        marker.result() == ControlRecordType.COMMIT);
            }
        });
        FindCoordinatorHandler findCoordinator = new FindCoordinatorHandler(metadata::image,
                new OffsetsTopic(controller, metadata::image, config), replicas.brokerId(), coordinator::leads);
        return new GroupCoordinatorComponents(offsetsLog, coordinator, findCoordinator,
                GroupHandlers.create(coordinator, otherGroups));
    }

    public GroupCoordinatorService coordinator() {
        return coordinator;
    }

    /**
     * FindCoordinator (answered synchronously from the metadata image), JoinGroup, SyncGroup, Heartbeat, LeaveGroup,
     * OffsetCommit/Fetch/Delete and List/Describe/DeleteGroups.
     */
    public List<ApiHandler> handlers() {
        List<ApiHandler> all = new ArrayList<>(asyncHandlers.size() + 1);
        all.add(findCoordinatorHandler);
        all.addAll(asyncHandlers);
        return all;
    }

    @Override
    public void close() {
        coordinator.close();
        offsetsLog.close();
    }
}
