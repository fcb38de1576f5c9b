package io.kraft.broker.group.share;

import io.kraft.broker.api.group.ShareGroupDescribeHandler;
import io.kraft.broker.api.group.ReadShareGroupStateHandler;
import io.kraft.broker.api.group.ShareGroupHeartbeatHandler;
import io.kraft.broker.api.group.WriteShareGroupStateHandler;
import io.kraft.broker.fetch.ShareAcknowledgeHandler;
import io.kraft.broker.fetch.ShareFetchHandler;
import io.kraft.broker.group.GroupConfig;
import io.kraft.broker.group.GroupCoordinator;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.group.ImageTopicCatalog;
import io.kraft.broker.group.InternalTopic;
import io.kraft.broker.group.OffsetsLeadershipListener;
import io.kraft.broker.group.ReplicaCoordinatorLog;
import io.kraft.broker.group.share.state.RemoteShareState;
import io.kraft.broker.group.share.state.ShareCoordinatorConfig;
import io.kraft.broker.group.share.state.ShareStateCoordinator;
import io.kraft.broker.group.share.state.ShareStateRouter;
import io.kraft.broker.network.InterBrokerSecurity;
import io.kraft.broker.network.ApiHandler;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.image.MetadataImage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * Share groups (KIP-932) on one broker, wired: the coordinator of the share groups whose
 * {@code __consumer_offsets} partition it leads, the share partitions of the partitions it leads, the share
 * sessions, the share coordinator of the {@code __share_group_state} partitions it leads with the router that finds
 * it for each share partition, and the six APIs' handlers. Close it after the wire server.
 */
public final class ShareGroupComponents implements AutoCloseable {
    /** Share sessions a broker keeps at once (Kafka's group.share.max.share.sessions default). */
    static final int MAX_SESSIONS = 2_000;

    private final ShareGroupCoordinator coordinator;
    private final ShareFetchService fetchService;
    private final ScheduledExecutorService waiter;
    private final List<ApiHandler> handlers;
    private final List<AutoCloseable> state;

    private ShareGroupComponents(ShareGroupCoordinator coordinator, ShareFetchService fetchService,
                                 ScheduledExecutorService waiter, List<ApiHandler> handlers,
                                 List<AutoCloseable> state) {
        this.coordinator = coordinator;
        this.fetchService = fetchService;
        this.waiter = waiter;
        this.handlers = handlers;
        this.state = state;
    }

    public static ShareGroupComponents create(Controller controller, Supplier<MetadataImage> images,
                                              ReplicaManager replicas, InterBrokerSecurity interBroker,
                                              GroupCoordinatorService groups, Map<String, String> properties) {
        ShareGroupConfig config = ShareGroupConfig.fromProperties(properties);
        int offsetsPartitions = GroupConfig.fromProperties(properties).offsetsTopicPartitions();
        ScheduledExecutorService waiter = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kraft-share-fetch-wait");
            t.setDaemon(true);
            return t;
        });
        ShareCoordinatorConfig stateConfig = ShareCoordinatorConfig.fromProperties(properties);
        ReplicaCoordinatorLog stateLog = new ReplicaCoordinatorLog(replicas, ShareStateCoordinator.TOPIC,
                "kraft-share-state-loader", stateConfig.writeTimeoutMs(), System::currentTimeMillis);
        ShareStateCoordinator stateCoordinator = new ShareStateCoordinator(stateLog,
                stateConfig.stateTopicPartitions());
        replicas.addLeadershipListener(new OffsetsLeadershipListener(ShareStateCoordinator.TOPIC, images,
                stateCoordinator));
        InternalTopic stateTopic = new InternalTopic(controller, images, new InternalTopic.Spec(
                ShareStateCoordinator.TOPIC, stateConfig.stateTopicPartitions(),
                stateConfig.stateTopicReplicationFactor(), ShareCoordinatorConfig.STATE_TOPIC_REPLICATION_FACTOR,
                stateConfig.stateTopicSegmentBytes()));
        RemoteShareState remote = new RemoteShareState(replicas.brokerId(), replicas::replicationEndpoint,
                interBroker, stateConfig.writeTimeoutMs());
        ShareStateRouter persister = new ShareStateRouter(replicas.brokerId(), images, stateTopic, stateCoordinator,
                remote, waiter, stateConfig.writeTimeoutMs(), System::currentTimeMillis);
        ShareFetchService fetchService = new ShareFetchService(replicas, images, config, persister,
                System::currentTimeMillis);
        ShareSessions sessions = new ShareSessions(MAX_SESSIONS, config.sessionTimeoutMs());
        ShareGroupCoordinator coordinator = new ShareGroupCoordinator(config, new ImageTopicCatalog(images),
                groupId -> groups.leads(GroupCoordinator.partitionFor(groupId, offsetsPartitions)),
                (groupId, memberId) -> {
                    sessions.remove(groupId, memberId);
                    fetchService.releaseMember(groupId, memberId);
                });
        List<ApiHandler> handlers = List.of(
                new ReadShareGroupStateHandler(stateCoordinator),
                new WriteShareGroupStateHandler(stateCoordinator),
                new ShareGroupHeartbeatHandler(coordinator),
                new ShareGroupDescribeHandler(coordinator, images),
                new ShareFetchHandler(fetchService, sessions, waiter, System::currentTimeMillis),
                new ShareAcknowledgeHandler(fetchService, sessions, System::currentTimeMillis));
        return new ShareGroupComponents(coordinator, fetchService, waiter, handlers,
                List.of(remote, stateCoordinator, stateLog));
    }

    public ShareGroupCoordinator coordinator() {
        return coordinator;
    }

    public ShareFetchService fetchService() {
        return fetchService;
    }

    public List<ApiHandler> handlers() {
        return handlers;
    }

    @Override
    public void close() {
        waiter.shutdownNow();
        coordinator.close();
        for (AutoCloseable closeable : state) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing share-group state", e);
            }
        }
    }
}
