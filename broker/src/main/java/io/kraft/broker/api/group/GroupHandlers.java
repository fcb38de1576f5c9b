package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.network.AsyncRequestHandler;
import java.util.List;

/** The asynchronous handlers of the group APIs, for a broker to register (FindCoordinator is built separately). */
public final class GroupHandlers {
    private GroupHandlers() {
    }

    public static List<AsyncRequestHandler<?, ?>> create(GroupCoordinatorService coordinator) {
        return List.of(
                new JoinGroupHandler(coordinator),
                new SyncGroupHandler(coordinator),
                new HeartbeatHandler(coordinator),
                new LeaveGroupHandler(coordinator),
                new OffsetCommitHandler(coordinator),
                new OffsetFetchHandler(coordinator),
                new ListGroupsHandler(coordinator),
                new DescribeGroupsHandler(coordinator),
                new DeleteGroupsHandler(coordinator),
                new OffsetDeleteHandler(coordinator),
                new ConsumerGroupHeartbeatHandler(coordinator),
                new ConsumerGroupDescribeHandler(coordinator));
    }
}
