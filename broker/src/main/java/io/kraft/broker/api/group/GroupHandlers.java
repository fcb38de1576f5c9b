package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.group.GroupApi.ListedGroup;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** The asynchronous handlers of the group APIs, for a broker to register (FindCoordinator is built separately). */
public final class GroupHandlers {
    private GroupHandlers() {
    }

    public static List<AsyncRequestHandler<?, ?>> create(GroupCoordinatorService coordinator) {
        return create(coordinator, () -> CompletableFuture.completedFuture(List.of()));
    }

    /** @param otherGroups the groups ListGroups reports besides the coordinator's (share groups) */
    public static List<AsyncRequestHandler<?, ?>> create(GroupCoordinatorService coordinator,
                                                         Supplier<CompletableFuture<List<ListedGroup>>> otherGroups) {
        return List.of(
                new JoinGroupHandler(coordinator),
                new SyncGroupHandler(coordinator),
                new HeartbeatHandler(coordinator),
                new LeaveGroupHandler(coordinator),
                new OffsetCommitHandler(coordinator),
                new OffsetFetchHandler(coordinator),
                new ListGroupsHandler(coordinator, otherGroups),
                new DescribeGroupsHandler(coordinator),
                new DeleteGroupsHandler(coordinator),
                new OffsetDeleteHandler(coordinator),
                new ConsumerGroupHeartbeatHandler(coordinator),
                new ConsumerGroupDescribeHandler(coordinator));
    }
}
