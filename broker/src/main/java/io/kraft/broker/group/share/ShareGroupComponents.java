package io.kraft.broker.group.share;

import io.kraft.broker.api.group.ShareGroupDescribeHandler;
import io.kraft.broker.api.group.ShareGroupHeartbeatHandler;
import io.kraft.broker.fetch.ShareAcknowledgeHandler;
import io.kraft.broker.fetch.ShareFetchHandler;
import io.kraft.broker.group.GroupConfig;
import io.kraft.broker.group.GroupCoordinator;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.group.ImageTopicCatalog;
import io.kraft.broker.network.ApiHandler;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.metadata.image.MetadataImage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * Share groups (KIP-932) on one broker, wired: the coordinator of the share groups whose
 * {@code __consumer_offsets} partition it leads, the share partitions of the partitions it leads, the share
 * sessions, and the four APIs' handlers. Close it after the wire server.
 */
public final class ShareGroupComponents implements AutoCloseable {
    /** Share sessions a broker keeps at once (Kafka's group.share.max.share.sessions default). */
    static final int MAX_SESSIONS = 2_000;

    private final ShareGroupCoordinator coordinator;
    private final ShareFetchService fetchService;
    private final ScheduledExecutorService waiter;
    private final List<ApiHandler> handlers;

    private ShareGroupComponents(ShareGroupCoordinator coordinator, ShareFetchService fetchService,
                                 ScheduledExecutorService waiter, List<ApiHandler> handlers) {
        this.coordinator = coordinator;
        this.fetchService = fetchService;
        this.waiter = waiter;
        this.handlers = handlers;
    }

    public static ShareGroupComponents create(Supplier<MetadataImage> images, ReplicaManager replicas,
                                              GroupCoordinatorService groups, Map<String, String> properties) {
        ShareGroupConfig config = ShareGroupConfig.fromProperties(properties);
        int offsetsPartitions = GroupConfig.fromProperties(properties).offsetsTopicPartitions();
        ShareFetchService fetchService = new ShareFetchService(replicas, images, config, System::currentTimeMillis);
        ShareSessions sessions = new ShareSessions(MAX_SESSIONS, config.sessionTimeoutMs());
        ShareGroupCoordinator coordinator = new ShareGroupCoordinator(config, new ImageTopicCatalog(images),
                groupId -> groups.leads(GroupCoordinator.partitionFor(groupId, offsetsPartitions)),
                (groupId, memberId) -> {
                    sessions.remove(groupId, memberId);
                    fetchService.releaseMember(groupId, memberId);
                });
        ScheduledExecutorService waiter = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kraft-share-fetch-wait");
            t.setDaemon(true);
            return t;
        });
        List<ApiHandler> handlers = List.of(
                new ShareGroupHeartbeatHandler(coordinator),
                new ShareGroupDescribeHandler(coordinator, images),
                new ShareFetchHandler(fetchService, sessions, waiter, System::currentTimeMillis),
                AsyncRequestHandler.of(new ShareAcknowledgeHandler(fetchService, sessions,
                        System::currentTimeMillis)));
        return new ShareGroupComponents(coordinator, fetchService, waiter, handlers);
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
    }
}
