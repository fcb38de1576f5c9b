package io.kraft.broker.group.share;

import io.kraft.broker.group.GroupApi;
import io.kraft.broker.group.GroupState;
import io.kraft.broker.group.consumer.TopicCatalog;
import io.kraft.broker.protocol.LogText;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The share groups this broker coordinates (KIP-932): ShareGroupHeartbeat, ShareGroupDescribe and session expiry,
 * all on one thread that owns every {@link ShareGroup}. Membership is soft state: after a coordinator change members
 * get UNKNOWN_MEMBER_ID and join again, which costs a share consumer nothing (its records' state is the partition
 * leaders', not the coordinator's).
 */
public final class ShareGroupCoordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShareGroupCoordinator.class);

    /** A group as ShareGroupDescribe and the CLI show it; null members list means the group is unknown. */
    public record GroupView(String groupId, String state, int groupEpoch, List<ShareGroup.Member> members) {
    }

    private final ShareGroupConfig config;
    private final TopicCatalog topics;
    private final Predicate<String> isCoordinator;
    private final BiConsumer<String, String> memberGone;
    private final Supplier<String> memberIds;
    private final ScheduledExecutorService thread;
    private final Map<String, ShareGroup> groups = new HashMap<>();
    private final Map<String, ScheduledFuture<?>> sessions = new HashMap<>();

    /**
     * @param isCoordinator whether this broker coordinates a group id now (it leads the group's
     *                      {@code __consumer_offsets} partition)
     * @param memberGone    told (group, member) when a member leaves or its session expires, so the partition
     *                      leaders here release its records at once rather than at lock expiry
     */
    public ShareGroupCoordinator(ShareGroupConfig config, TopicCatalog topics, Predicate<String> isCoordinator,
                                 BiConsumer<String, String> memberGone) {
        this(config, topics, isCoordinator, memberGone, () -> UUID.randomUUID().toString());
    }

    ShareGroupCoordinator(ShareGroupConfig config, TopicCatalog topics, Predicate<String> isCoordinator,
                          BiConsumer<String, String> memberGone, Supplier<String> memberIds) {
        this.config = config;
        this.topics = topics;
        this.isCoordinator = isCoordinator;
        this.memberGone = memberGone;
        this.memberIds = memberIds;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kraft-share-coordinator");
            t.setDaemon(true);
            return t;
        });
    }

    public ShareGroupConfig config() {
        return config;
    }

    /** Applies a heartbeat on the coordinator thread. */
    public CompletableFuture<ShareGroup.Result> heartbeat(ShareGroup.Heartbeat hb) {
        return CompletableFuture.supplyAsync(() -> onHeartbeat(hb), thread);
    }

    /** The groups named, in order, each as it is now. */
    public CompletableFuture<List<GroupView>> describe(List<String> groupIds) {
        return CompletableFuture.supplyAsync(() -> {
            List<GroupView> out = new ArrayList<>();
            for (String id : groupIds) {
                ShareGroup group = groups.get(id);
                out.add(group == null ? new GroupView(id, "Dead", 0, null)
                        : new GroupView(id, group.state(), group.groupEpoch(), new ArrayList<>(group.members())));
            }
            return out;
        }, thread);
    }

    /** Every share group this broker coordinates, as ListGroups reports it (type and protocol type "share"). */
    public CompletableFuture<List<GroupApi.ListedGroup>> listed() {
        return CompletableFuture.supplyAsync(() -> groups.values().stream()
                .filter(g -> isCoordinator.test(g.groupId()))
                .map(g -> {
                    GroupState state = g.isEmpty() ? GroupState.EMPTY : GroupState.STABLE;
                    return new GroupApi.ListedGroup(g.groupId(), "share", state, "share", state.wireName());
                }).toList(), thread);
    }

    /** Whether this broker coordinates {@code groupId}. */
    public boolean coordinates(String groupId) {
        return isCoordinator.test(groupId);
    }

    private ShareGroup.Result onHeartbeat(ShareGroup.Heartbeat hb) {
        if (hb.groupId() == null || hb.groupId().isEmpty()) {
            return ShareGroup.Result.error(Errors.INVALID_GROUP_ID, "the group id is empty");
        }
        if (!isCoordinator.test(hb.groupId())) {
            return ShareGroup.Result.error(Errors.NOT_COORDINATOR, null);
        }
        ShareGroup group = groups.get(hb.groupId());
        if (group == null) {
            if (groups.size() >= config.maxGroups()) {
                return ShareGroup.Result.error(Errors.GROUP_MAX_SIZE_REACHED, "this broker coordinates "
                        + config.maxGroups() + " share groups (" + ShareGroupConfig.MAX_GROUPS + ")");
            }
            group = new ShareGroup(hb.groupId());
            groups.put(hb.groupId(), group);
        }
        ShareGroup.Result result = group.heartbeat(hb, topics, config.maxSize(), memberIds.get());
        if (result.errorCode() != Errors.NONE.code()) {
            dropIfEmpty(group);
            return result;
        }
        String key = key(hb.groupId(), result.memberId());
        if (result.memberEpoch() == ShareGroup.LEAVE_EPOCH) {
            cancelSession(key);
            LOG.info("Share group {} member {} left (group epoch {})", LogText.of(hb.groupId()),
                    result.memberId(), group.groupEpoch());
            memberGone.accept(hb.groupId(), result.memberId());
            dropIfEmpty(group);
            return result;
        }
        if (hb.memberEpoch() == 0) {
            LOG.info("Share group {} member {} joined at epoch {}", LogText.of(hb.groupId()), result.memberId(),
                    result.memberEpoch());
        }
        cancelSession(key);
        sessions.put(key, thread.schedule(() -> expire(hb.groupId(), result.memberId()),
                config.sessionTimeoutMs(), TimeUnit.MILLISECONDS));
        return result;
    }

    private void expire(String groupId, String memberId) {
        sessions.remove(key(groupId, memberId));
        ShareGroup group = groups.get(groupId);
        if (group != null && group.remove(memberId)) {
            LOG.info("Share group {} member {} removed: no heartbeat for {} ms", LogText.of(groupId), memberId,
                    config.sessionTimeoutMs());
            memberGone.accept(groupId, memberId);
            dropIfEmpty(group);
        }
    }

    /** A group without members holds nothing here (its records' state is the partition leaders'): forget it. */
    private void dropIfEmpty(ShareGroup group) {
        if (group.isEmpty()) {
            groups.remove(group.groupId());
        }
    }

    private void cancelSession(String key) {
        ScheduledFuture<?> previous = sessions.remove(key);
        if (previous != null) {
            previous.cancel(false);
        }
    }

    private static String key(String groupId, String memberId) {
        return groupId + '\u0000' + memberId;
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
