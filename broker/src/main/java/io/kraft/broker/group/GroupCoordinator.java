package io.kraft.broker.group;

import io.kraft.broker.group.CoordinatorRecord.GroupMetadata;
import io.kraft.broker.group.CoordinatorRecord.GroupMetadataValue;
import io.kraft.broker.group.CoordinatorRecord.OffsetCommit;
import io.kraft.broker.group.GroupApi.CommitRequest;
import io.kraft.broker.group.GroupApi.DescribedGroup;
import io.kraft.broker.group.GroupApi.DescribedMember;
import io.kraft.broker.group.GroupApi.HeartbeatRequest;
import io.kraft.broker.group.GroupApi.JoinRequest;
import io.kraft.broker.group.GroupApi.JoinResult;
import io.kraft.broker.group.GroupApi.LeaveResult;
import io.kraft.broker.group.GroupApi.LeavingMember;
import io.kraft.broker.group.GroupApi.ListGroupsResult;
import io.kraft.broker.group.GroupApi.ListedGroup;
import io.kraft.broker.group.GroupApi.OffsetDeleteResult;
import io.kraft.broker.group.GroupApi.OffsetFetchResult;
import io.kraft.broker.group.GroupApi.PartitionCommit;
import io.kraft.broker.group.GroupApi.SyncRequest;
import io.kraft.broker.group.GroupApi.SyncResult;
import io.kraft.broker.group.GroupApi.TxnCommitRequest;
import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.broker.group.consumer.ConsumerGroupRecord;
import io.kraft.broker.group.consumer.ConsumerGroupView;
import io.kraft.broker.group.consumer.ConsumerHeartbeat;
import io.kraft.broker.group.consumer.TopicCatalog;
import io.kraft.broker.protocol.LogText;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group coordinator as a plain state machine driven from one thread: it routes each group to its
 * {@code __consumer_offsets} partition, answers NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS for partitions
 * it does not lead or is still loading, rebuilds groups and offsets from a partition's records and transaction
 * markers when it becomes leader, drops them when it stops, decides transactional offsets when their markers are
 * written, and runs offset retention. Membership and offsets live in
 * {@link GroupMembershipManager} and {@link OffsetManager}. Every method must be called on the timer's owner
 * thread; {@link GroupCoordinatorService} is the thread-safe front.
 */
public final class GroupCoordinator {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCoordinator.class);
    /** How long a failed load waits before reading the partition again. */
    static final long LOAD_RETRY_MS = 1_000;

    private final GroupConfig config;
    private final CoordinatorTimer timer;
    private final CoordinatorLog log;
    private final GroupMembershipManager membership;
    private final OffsetManager offsets;
    private final ConsumerGroupHeartbeats consumerGroups;
    private final ClassicMembersOfConsumerGroup classicMembers;
    private final Map<Integer, CoordinatorPartition> partitions = new HashMap<>();
    private int partitionCount;

    /**
     * @param partitionExists whether a committed offset names an existing topic partition
     */
    public GroupCoordinator(GroupConfig config, CoordinatorTimer timer, CoordinatorLog log,
                            Predicate<OffsetKey> partitionExists) {
        this(config, ConsumerGroupConfig.defaults(), TopicCatalog.EMPTY, timer, log, partitionExists);
    }

    /** @param topics the topics consumer-protocol groups subscribe to (KIP-848) */
    public GroupCoordinator(GroupConfig config, ConsumerGroupConfig consumerConfig, TopicCatalog topics,
                            CoordinatorTimer timer, CoordinatorLog log, Predicate<OffsetKey> partitionExists) {
        this.config = Objects.requireNonNull(config, "config");
        this.timer = Objects.requireNonNull(timer, "timer");
        this.log = Objects.requireNonNull(log, "log");
        this.membership = new GroupMembershipManager(config, timer, this::write);
        this.offsets = new OffsetManager(config, timer, this::write, this::writeTransactional, partitionExists);
        this.partitionCount = config.offsetsTopicPartitions();
        this.consumerGroups = new ConsumerGroupHeartbeats(consumerConfig, timer, this::write, topics, downgraded -> {
            membership.restoreSessions(downgraded);
            membership.prepareRebalance(downgraded, "it went back to the classic protocol");
        });
        this.classicMembers = new ClassicMembersOfConsumerGroup(config, timer, consumerGroups);
    }

    /**
     * The {@code __consumer_offsets} partition of a group: the absolute value of the id's Java String hash
     * (Integer.MIN_VALUE counts as 0) modulo the partition count, as Kafka places groups.
     */
    public static int partitionFor(String groupId, int partitionCount) {
        int hash = groupId.hashCode();
        int positive = hash == Integer.MIN_VALUE ? 0 : Math.abs(hash);
        return positive % partitionCount;
    }

    public int partitionFor(String groupId) {
        return partitionFor(groupId, partitionCount);
    }

    public int partitionCount() {
        return partitionCount;
    }

    /** Uses the partition count of the existing {@code __consumer_offsets} topic for routing. */
    public void partitionCount(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("__consumer_offsets needs at least one partition, got " + count);
        }
        if (count != partitionCount) {
            LOG.info("__consumer_offsets has {} partitions; groups are placed by that count", count);
            partitionCount = count;
        }
    }

    /** Runs offset retention every offsets.retention.check.interval.ms from now on. */
    public void scheduleOffsetExpiry() {
        timer.schedule(config.offsetsRetentionCheckIntervalMs(), () -> {
            expireOffsets();
            scheduleOffsetExpiry();
        });
    }

    // ---- leadership -------------------------------------------------------------------------------

    /** This broker now leads {@code partition}: load its groups (requests meanwhile are told to retry). */
    public void onElected(int partition, int leaderEpoch) {
        CoordinatorPartition current = partitions.get(partition);
        if (current != null) {
            current.leaderEpoch(leaderEpoch);
            return;
        }
        CoordinatorPartition loading = new CoordinatorPartition(partition, leaderEpoch);
        partitions.put(partition, loading);
        LOG.info("Loading groups of __consumer_offsets-{} at leader epoch {}", partition, leaderEpoch);
        load(loading);
    }

    private void load(CoordinatorPartition target) {
        long startMs = timer.nowMs();
        CompletableFuture<List<CoordinatorLogEntry>> read;
        try {
            read = log.readAll(target.partition());
        } catch (RuntimeException e) {
            read = CompletableFuture.failedFuture(e);
        }
        read.whenComplete((entries, failure) -> timer.execute(() -> {
            if (partitions.get(target.partition()) != target) {
                return; // resigned while loading
            }
            if (failure != null) {
                LOG.warn("Could not load __consumer_offsets-{}, retrying: {}", target.partition(), failure.toString());
                timer.schedule(LOAD_RETRY_MS, () -> {
                    if (partitions.get(target.partition()) == target) {
                        load(target);
                    }
                });
                return;
            }
            long recordCount = replay(target, entries);
            target.loaded().forEach(done -> completeTransaction(target, done.producerId(), done.committed()));
            LOG.info("Loaded {} groups from {} records of __consumer_offsets-{} in {} ms", target.groups().size(),
                    recordCount, target.partition(), timer.nowMs() - startMs);
        }));
    }

    /** Rebuilds the partition's groups from its log; returns how many records were replayed. */
    private long replay(CoordinatorPartition target, List<CoordinatorLogEntry> entries) {
        CoordinatorReplay replay = new CoordinatorReplay();
        replay.replay(entries);
        Map<String, GroupMetadataValue> stored = replay.groups();
        long nowMs = timer.nowMs();
        Map<String, ClassicGroup> rebuilt = new LinkedHashMap<>();
        stored.forEach((groupId, value) -> {
            ClassicGroup group = new ClassicGroup(groupId, nowMs);
            group.protocolType(value.protocolType());
            group.generationId(value.generation());
            group.protocolName(value.protocol());
            GroupMembershipManager.restoreMembers(group, value);
            long stateTimestampMs = value.currentStateTimestampMs() >= 0 ? value.currentStateTimestampMs() : nowMs;
            group.restoreState(group.isEmptyOfMembers() ? GroupState.EMPTY : GroupState.STABLE, stateTimestampMs);
            rebuilt.put(groupId, group);
        });
        replay.consumerGroups().groups().forEach((groupId, consumerGroup) -> {
            ClassicGroup group = new ClassicGroup(groupId, nowMs);
            group.consumerGroup(consumerGroup);
            rebuilt.put(groupId, group);
        });
        replay.offsets().forEach((groupId, groupOffsets) -> {
            if (groupOffsets.isEmpty()) {
                return;
            }
            ClassicGroup group = rebuilt.computeIfAbsent(groupId, id -> new ClassicGroup(id, nowMs));
            groupOffsets.forEach((key, offset) -> group.putOffsetWrittenAt(key, offset.offset(), offset.position()));
        });
        replay.undecided().forEach((groupId, undecided) -> {
            ClassicGroup group = rebuilt.computeIfAbsent(groupId, id -> new ClassicGroup(id, nowMs));
            undecided.forEach(u -> {
                group.transactionalOffsets().add(u.producerId(), u.partition(),
                        new TransactionalOffsets.Pending(u.offset().offset(), u.offset().position()));
                target.producerWroteTo(u.producerId(), groupId);
            });
        });
        for (ClassicGroup group : rebuilt.values()) {
            group.writePositionAtLeast(replay.endPosition());
            target.put(group);
            if (group.consumerGroup() != null) {
                consumerGroups.restore(group);
            } else if (group.is(GroupState.STABLE)) {
                membership.restoreSessions(group);
            }
        }
        return replay.endPosition();
    }

    /** This broker no longer leads {@code partition}: its groups are dropped and held calls told NOT_COORDINATOR. */
    public void onResigned(int partition) {
        CoordinatorPartition removed = partitions.remove(partition);
        if (removed == null) {
            return;
        }
        for (ClassicGroup group : removed.groups()) {
            GroupMembershipManager.failAllWaiting(group, Errors.NOT_COORDINATOR);
            consumerGroups.unload(group);
            group.restoreState(GroupState.DEAD, timer.nowMs());
        }
        LOG.info("Unloaded {} groups of __consumer_offsets-{}", removed.groups().size(), partition);
    }

    // ---- routing ----------------------------------------------------------------------------------

    /** NONE when this coordinator serves the group now, else why not. */
    public Errors routeError(String groupId) {
        if (groupId == null) {
            return Errors.INVALID_GROUP_ID;
        }
        CoordinatorPartition state = partitions.get(partitionFor(groupId));
        if (state == null) {
            return Errors.NOT_COORDINATOR;
        }
        return state.isLoading() ? Errors.COORDINATOR_LOAD_IN_PROGRESS : Errors.NONE;
    }

    private Errors routeNonEmpty(String groupId) {
        return groupId == null || groupId.isEmpty() ? Errors.INVALID_GROUP_ID : routeError(groupId);
    }

    private CoordinatorPartition partitionOf(String groupId) {
        return partitions.get(partitionFor(groupId));
    }

    private ClassicGroup group(String groupId) {
        return partitionOf(groupId).group(groupId);
    }

    // ---- membership -------------------------------------------------------------------------------

    public void joinGroup(JoinRequest request, Consumer<JoinResult> done) {
        Errors route = routeNonEmpty(request.groupId());
        if (route != Errors.NONE) {
            done.accept(JoinResult.failed(route, request.memberId()));
            return;
        }
        CoordinatorPartition partition = partitionOf(request.groupId());
        ClassicGroup group = partition.group(request.groupId());
        if (group != null && group.consumerGroup() != null) {
            if (!group.consumerGroup().isEmpty()) {
                if (classicMembers.accepts()) {
                    classicMembers.join(group, request, done); // KIP-848: a classic member of a consumer group
                } else {
                    done.accept(JoinResult.failed(Errors.INCONSISTENT_GROUP_PROTOCOL, request.memberId()));
                }
                return;
            }
            List<CoordinatorRecord> tombstones = new ArrayList<>();
            addConsumerTombstones(group, tombstones);
            group.consumerGroup(null); // only offsets left: the classic protocol may take the group over
            String groupId = group.groupId();
            appendTo(partition, groupId, tombstones, error -> LOG.info(
                    "Empty consumer group {} becomes a classic group: {}", LogText.of(groupId), error));
        }
        boolean created = false;
        if (group == null) {
            if (!request.memberId().isEmpty()) {
                done.accept(JoinResult.failed(Errors.UNKNOWN_MEMBER_ID, request.memberId()));
                return;
            }
            group = new ClassicGroup(request.groupId(), timer.nowMs());
            partition.put(group);
            created = true;
        }
        membership.join(group, request, done);
        if (created && group.is(GroupState.EMPTY) && group.isEmptyOfMembers() && group.pendingCount() == 0) {
            partition.remove(group.groupId()); // a refused first join leaves no trace
        }
    }

    public void syncGroup(SyncRequest request, Consumer<SyncResult> done) {
        Errors route = routeNonEmpty(request.groupId());
        if (route != Errors.NONE) {
            done.accept(SyncResult.failed(route));
            return;
        }
        ClassicGroup group = group(request.groupId());
        if (group == null) {
            done.accept(SyncResult.failed(Errors.UNKNOWN_MEMBER_ID));
            return;
        }
        if (group.consumerGroup() != null) {
            classicMembers.sync(group, request, done);
            return;
        }
        membership.sync(group, request, done);
    }

    public Errors heartbeat(HeartbeatRequest request) {
        Errors route = routeNonEmpty(request.groupId());
        if (route != Errors.NONE) {
            return route;
        }
        ClassicGroup group = group(request.groupId());
        if (group != null && group.consumerGroup() != null) {
            return classicMembers.heartbeat(group, request);
        }
        return group == null ? Errors.UNKNOWN_MEMBER_ID : membership.heartbeat(group, request);
    }

    public LeaveResult leaveGroup(String groupId, List<LeavingMember> members) {
        Errors route = routeNonEmpty(groupId);
        if (route != Errors.NONE) {
            return new LeaveResult(route, List.of());
        }
        ClassicGroup group = group(groupId);
        if (group == null) {
            return new LeaveResult(Errors.NONE,
                    members.stream().map(m -> Errors.UNKNOWN_MEMBER_ID).toList());
        }
        if (group.consumerGroup() != null) {
            return classicMembers.leave(group, members,
                    (downgraded, member) -> membership.leave(downgraded, List.of(member)).memberErrors().get(0));
        }
        return membership.leave(group, members);
    }

    /** ConsumerGroupHeartbeat (KIP-848): joins, reconciles, or leaves a consumer-protocol group. */
    public void consumerGroupHeartbeat(ConsumerHeartbeat request, Consumer<ConsumerHeartbeat.Result> done) {
        String invalid = consumerGroups.invalid(request);
        if (invalid != null) {
            done.accept(ConsumerHeartbeat.Result.failed(Errors.INVALID_REQUEST, invalid));
            return;
        }
        Errors route = routeError(request.groupId());
        if (route != Errors.NONE) {
            done.accept(ConsumerHeartbeat.Result.failed(route, null));
            return;
        }
        CoordinatorPartition partition = partitionOf(request.groupId());
        ClassicGroup group = partition.group(request.groupId());
        if (group == null) {
            if (request.memberEpoch() != 0) {
                done.accept(ConsumerHeartbeat.Result.failed(Errors.UNKNOWN_MEMBER_ID, "The group is unknown."));
                return;
            }
            group = new ClassicGroup(request.groupId(), timer.nowMs());
            partition.put(group);
        }
        List<CoordinatorRecord> upgrade = consumerGroups.adopt(group);
        if (upgrade == null) {
            done.accept(ConsumerHeartbeat.Result.failed(Errors.GROUP_ID_NOT_FOUND,
                    "Group " + request.groupId() + " is a classic group with members."));
            return;
        }
        consumerGroups.heartbeat(group, upgrade, request, done);
    }

    // ---- offsets ----------------------------------------------------------------------------------

    /** Commits offsets; {@code done} gets one error per partition (a refused commit gives every partition its error). */
    public void commitOffsets(CommitRequest request, Consumer<Map<OffsetKey, Errors>> done) {
        Errors route = routeError(request.groupId());
        if (route != Errors.NONE) {
            done.accept(allPartitions(request, route));
            return;
        }
        CoordinatorPartition partition = partitionOf(request.groupId());
        ClassicGroup group = partition.group(request.groupId());
        Errors refused = group != null && group.consumerGroup() != null
                ? consumerGroups.validateCommit(group, request) : offsets.validateCommit(group, request);
        if (refused != Errors.NONE) {
            done.accept(allPartitions(request, refused));
            return;
        }
        if (group == null) {
            group = new ClassicGroup(request.groupId(), timer.nowMs());
            partition.put(group);
        }
        offsets.commit(group, request, done);
    }

    /**
     * Writes a TxnOffsetCommit's offsets in the producer's transaction; {@code done} gets one error per partition. The
     * caller has checked that the group's partition is in the producer's open transaction.
     */
    public void commitTransactionalOffsets(TxnCommitRequest request, Consumer<Map<OffsetKey, Errors>> done) {
        Errors route = routeNonEmpty(request.groupId());
        if (route != Errors.NONE) {
            done.accept(allPartitions(request.partitions(), route));
            return;
        }
        CoordinatorPartition partition = partitionOf(request.groupId());
        ClassicGroup group = partition.group(request.groupId());
        Errors refused = offsets.validateTransactionalCommit(group, request);
        if (refused != Errors.NONE) {
            LOG.info("TxnOffsetCommit of transactional id {} to group {} (generation {}, member {}) refused: {}",
                    LogText.of(request.transactionalId()), LogText.of(request.groupId()), request.generationId(),
                    LogText.of(request.memberId()), refused);
            done.accept(allPartitions(request.partitions(), refused));
            return;
        }
        if (group == null) {
            group = new ClassicGroup(request.groupId(), timer.nowMs());
            partition.put(group);
        }
        partition.producerWroteTo(request.producerId(), group.groupId());
        offsets.commitTransactional(group, request, done);
    }

    /**
     * The producer's COMMIT or ABORT marker is written to {@code partition}: the offsets its transaction wrote there
     * become committed, or are dropped. A partition still loading applies it after the load (the load may have read
     * the log before the marker).
     */
    public void completeTransaction(int partition, long producerId, boolean committed) {
        CoordinatorPartition target = partitions.get(partition);
        if (target == null) {
            return; // not the leader: the next leader reads the marker from the log
        }
        if (target.isLoading()) {
            target.completedWhileLoading(producerId, committed);
            return;
        }
        completeTransaction(target, producerId, committed);
    }

    private void completeTransaction(CoordinatorPartition target, long producerId, boolean committed) {
        for (String groupId : target.groupsWrittenBy(producerId)) {
            ClassicGroup group = target.group(groupId);
            if (group != null) {
                OffsetManager.completeTransaction(group, producerId, committed);
                LOG.debug("Producer {} {} its offsets of group {}", producerId,
                        committed ? "committed" : "aborted", LogText.of(groupId));
            }
        }
    }

    private static Map<OffsetKey, Errors> allPartitions(List<PartitionCommit> partitions, Errors error) {
        Map<OffsetKey, Errors> results = new LinkedHashMap<>();
        partitions.forEach(p -> results.put(p.partition(), error));
        return results;
    }

    private static Map<OffsetKey, Errors> allPartitions(CommitRequest request, Errors error) {
        Map<OffsetKey, Errors> results = new LinkedHashMap<>();
        request.partitions().forEach(p -> results.put(p.partition(), error));
        return results;
    }

    /** Committed offsets of {@code partitions} (all of the group's when null). */
    public OffsetFetchResult fetchOffsets(String groupId, List<OffsetKey> partitions, boolean requireStable) {
        Errors route = routeError(groupId);
        if (route != Errors.NONE) {
            return new OffsetFetchResult(route, List.of());
        }
        return offsets.fetch(group(groupId), partitions, requireStable);
    }

    public void deleteOffsets(String groupId, List<OffsetKey> partitions, Consumer<OffsetDeleteResult> done) {
        Errors route = routeNonEmpty(groupId);
        if (route != Errors.NONE) {
            done.accept(new OffsetDeleteResult(route, Map.of()));
            return;
        }
        offsets.delete(group(groupId), partitions, done);
    }

    /** Applies offset retention to every loaded group; empty groups left without offsets are deleted. */
    public void expireOffsets() {
        for (CoordinatorPartition partition : partitions.values()) {
            if (partition.isLoading()) {
                continue;
            }
            for (ClassicGroup group : new ArrayList<>(partition.groups())) {
                List<OffsetKey> expired = offsets.expiredOffsets(group);
                boolean removeGroup = group.is(GroupState.EMPTY) && !group.hasPendingCommits()
                        && group.offsets().size() == expired.size();
                if (expired.isEmpty() && !removeGroup) {
                    continue;
                }
                List<CoordinatorRecord> tombstones = new ArrayList<>();
                for (OffsetKey key : expired) {
                    group.removeOffset(key);
                    tombstones.add(new OffsetCommit(group.groupId(), key, null));
                }
                if (removeGroup) {
                    group.transitionTo(GroupState.DEAD, timer.nowMs());
                    partition.remove(group.groupId());
                    tombstones.add(new GroupMetadata(group.groupId(), null));
                    addConsumerTombstones(group, tombstones);
                }
                LOG.info("Expired {} offsets of group {}{}", expired.size(), LogText.of(group.groupId()),
                        removeGroup ? "; the group is removed" : "");
                appendTo(partition, group.groupId(), tombstones, error -> {
                    if (error != Errors.NONE) {
                        LOG.warn("Could not write expiry tombstones of group {}: {}", LogText.of(group.groupId()), error);
                    }
                });
            }
        }
    }

    // ---- administration ---------------------------------------------------------------------------

    /** How many groups of the loaded partitions are in each state, and their committed offsets. */
    public GroupCounts counts() {
        EnumMap<GroupState, Integer> byState = new EnumMap<>(GroupState.class);
        Map<GroupCounts.GroupOffset, Long> committed = new HashMap<>();
        Map<String, Integer> consumerByState = new HashMap<>();
        for (CoordinatorPartition partition : partitions.values()) {
            for (ClassicGroup group : partition.groups()) {
                if (group.consumerGroup() != null) {
                    consumerByState.merge(group.consumerGroup().stateName().toLowerCase(Locale.ROOT), 1,
                            Integer::sum);
                } else {
                    byState.merge(group.state(), 1, Integer::sum);
                }
                group.offsets().forEach((key, offset) ->
                        committed.put(new GroupCounts.GroupOffset(group.groupId(), key), offset.offset()));
            }
        }
        return new GroupCounts(byState, committed, consumerByState);
    }

    /** Groups of every loaded partition, optionally only those in {@code states} (empty: all). */
    public ListGroupsResult listGroups(Set<GroupState> states) {
        Errors error = Errors.NONE;
        List<ListedGroup> listed = new ArrayList<>();
        for (CoordinatorPartition partition : partitions.values()) {
            if (partition.isLoading()) {
                error = Errors.COORDINATOR_LOAD_IN_PROGRESS;
                continue;
            }
            for (ClassicGroup group : partition.groups()) {
                if (!group.is(GroupState.DEAD) && (states.isEmpty() || states.contains(group.state()))) {
                    String protocolType = group.protocolType() == null ? "" : group.protocolType();
                    listed.add(group.consumerGroup() == null
                            ? new ListedGroup(group.groupId(), protocolType, group.state())
                            : new ListedGroup(group.groupId(), protocolType, group.state(), "consumer",
                                    group.consumerGroup().stateName()));
                }
            }
        }
        listed.sort((a, b) -> a.groupId().compareTo(b.groupId()));
        return new ListGroupsResult(error, listed);
    }

    /** A group's state and members; an unknown group is reported Dead with GROUP_ID_NOT_FOUND. */
    public DescribedGroup describeGroup(String groupId) {
        Errors route = routeError(groupId);
        if (route != Errors.NONE) {
            return new DescribedGroup(route, groupId, GroupState.DEAD, "", "", List.of());
        }
        ClassicGroup group = group(groupId);
        if (group == null || group.is(GroupState.DEAD)) {
            return new DescribedGroup(Errors.GROUP_ID_NOT_FOUND, groupId, GroupState.DEAD, "", "", List.of());
        }
        if (group.consumerGroup() != null) {
            return ConsumerGroupClassicDescription.of(group, consumerGroups.describe(groupId, group).assignorName());
        }
        boolean stable = group.is(GroupState.STABLE);
        List<DescribedMember> members = new ArrayList<>();
        for (GroupMember member : group.members()) {
            members.add(new DescribedMember(member.memberId(), member.groupInstanceId(), member.clientId(),
                    member.clientHost(), stable ? member.metadata(group.protocolName()) : new byte[0],
                    stable ? member.assignment() : new byte[0]));
        }
        return new DescribedGroup(Errors.NONE, groupId, group.state(),
                group.protocolType() == null ? "" : group.protocolType(),
                stable && group.protocolName() != null ? group.protocolName() : "", members);
    }

    /** A consumer-protocol group's epochs, members and assignments (ConsumerGroupDescribe, KIP-848). */
    public ConsumerGroupView describeConsumerGroup(String groupId) {
        Errors route = routeNonEmpty(groupId);
        if (route != Errors.NONE) {
            return ConsumerGroupView.failed(groupId, route, null);
        }
        return consumerGroups.describe(groupId, group(groupId));
    }

    /** Deletes an empty group and its offsets (tombstones); NON_EMPTY_GROUP while it has members. */
    public void deleteGroup(String groupId, Consumer<Errors> done) {
        Errors route = routeError(groupId);
        if (route != Errors.NONE) {
            done.accept(route);
            return;
        }
        CoordinatorPartition partition = partitionOf(groupId);
        ClassicGroup group = partition.group(groupId);
        if (group == null || group.is(GroupState.DEAD)) {
            done.accept(Errors.GROUP_ID_NOT_FOUND);
            return;
        }
        if (!group.is(GroupState.EMPTY)) {
            done.accept(Errors.NON_EMPTY_GROUP);
            return;
        }
        List<CoordinatorRecord> tombstones = new ArrayList<>();
        Set<OffsetKey> keys = new TreeSet<>(group.offsets().keySet());
        keys.addAll(group.transactionalOffsets().partitions()); // Kafka deletes undecided offsets with the group too
        keys.forEach(key -> tombstones.add(new OffsetCommit(groupId, key, null)));
        tombstones.add(new GroupMetadata(groupId, null));
        addConsumerTombstones(group, tombstones);
        consumerGroups.unload(group);
        group.cancelAllTimers();
        group.transitionTo(GroupState.DEAD, timer.nowMs());
        partition.remove(groupId);
        LOG.info("Deleting group {} and its {} offsets", LogText.of(groupId), tombstones.size() - 1);
        appendTo(partition, groupId, tombstones, done);
    }

    /** An empty consumer-protocol group's epochs go with it (KIP-848 records). */
    private static void addConsumerTombstones(ClassicGroup group, List<CoordinatorRecord> tombstones) {
        if (group.consumerGroup() != null) {
            tombstones.add(new CoordinatorRecord.ConsumerGroupPart(
                    new ConsumerGroupRecord.TargetAssignmentEpoch(group.groupId(), null)));
            tombstones.add(new CoordinatorRecord.ConsumerGroupPart(
                    new ConsumerGroupRecord.GroupEpoch(group.groupId(), null)));
        }
    }

    // ---- writes -----------------------------------------------------------------------------------

    private void write(ClassicGroup group, List<CoordinatorRecord> records, Consumer<Errors> done) {
        CoordinatorPartition partition = partitionOf(group.groupId());
        if (partition == null || partition.isLoading()) {
            done.accept(Errors.NOT_COORDINATOR);
            return;
        }
        appendTo(partition, group.groupId(), records, done);
    }

    private void writeTransactional(ClassicGroup group, long producerId, short producerEpoch,
                                    List<CoordinatorRecord> records, Consumer<Errors> done) {
        CoordinatorPartition partition = partitionOf(group.groupId());
        if (partition == null || partition.isLoading()) {
            done.accept(Errors.NOT_COORDINATOR);
            return;
        }
        CompletableFuture<Void> appended;
        try {
            appended = log.appendTransactional(partition.partition(), partition.leaderEpoch(), producerId,
                    producerEpoch, records);
        } catch (RuntimeException e) {
            appended = CompletableFuture.failedFuture(e);
        }
        whenWritten(appended, group.groupId(), done);
    }

    private void appendTo(CoordinatorPartition partition, String groupId, List<CoordinatorRecord> records,
                          Consumer<Errors> done) {
        CompletableFuture<Void> appended;
        try {
            appended = log.append(partition.partition(), partition.leaderEpoch(), records);
        } catch (RuntimeException e) {
            appended = CompletableFuture.failedFuture(e);
        }
        whenWritten(appended, groupId, done);
    }

    private void whenWritten(CompletableFuture<Void> appended, String groupId, Consumer<Errors> done) {
        appended.orTimeout(config.offsetsCommitTimeoutMs(), TimeUnit.MILLISECONDS)
                .whenComplete((ignored, failure) -> timer.execute(() -> done.accept(toError(groupId, failure))));
    }

    private static Errors toError(String groupId, Throwable failure) {
        if (failure == null) {
            return Errors.NONE;
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause instanceof CoordinatorLogException logFailure) {
            return logFailure.error();
        }
        if (cause instanceof TimeoutException) {
            // Kafka answers a coordinator write that timed out this way too: the client finds the coordinator again.
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        LOG.error("Unexpected failure writing records of group {}", LogText.of(groupId), cause);
        return Errors.UNKNOWN_SERVER_ERROR;
    }
}
