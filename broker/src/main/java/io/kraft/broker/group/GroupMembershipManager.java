package io.kraft.broker.group;

import io.kraft.broker.group.CoordinatorRecord.GroupMetadata;
import io.kraft.broker.group.CoordinatorRecord.GroupMetadataValue;
import io.kraft.broker.group.CoordinatorRecord.StoredMember;
import io.kraft.broker.group.GroupApi.HeartbeatRequest;
import io.kraft.broker.group.GroupApi.JoinRequest;
import io.kraft.broker.group.GroupApi.JoinResult;
import io.kraft.broker.group.GroupApi.JoinedMember;
import io.kraft.broker.group.GroupApi.LeaveResult;
import io.kraft.broker.group.GroupApi.LeavingMember;
import io.kraft.broker.group.GroupApi.Protocol;
import io.kraft.broker.group.GroupApi.SyncRequest;
import io.kraft.broker.group.GroupApi.SyncResult;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The classic rebalance protocol on one group: JoinGroup, SyncGroup, Heartbeat and LeaveGroup, session expiry,
 * the rebalance and sync timeouts, the initial rebalance delay, KIP-394 member ids and KIP-345 static members.
 * Runs on the coordinator thread; held JoinGroup / SyncGroup calls are answered through their callbacks.
 */
final class GroupMembershipManager {
    private static final Logger LOG = LoggerFactory.getLogger(GroupMembershipManager.class);

    private final GroupConfig config;
    private final CoordinatorTimer timer;
    private final GroupRecordWriter writer;

    GroupMembershipManager(GroupConfig config, CoordinatorTimer timer, GroupRecordWriter writer) {
        this.config = config;
        this.timer = timer;
        this.writer = writer;
    }

    // ---- JoinGroup --------------------------------------------------------------------------------

    void join(ClassicGroup group, JoinRequest request, Consumer<JoinResult> done) {
        if (request.sessionTimeoutMs() < config.minSessionTimeoutMs()
                || request.sessionTimeoutMs() > config.maxSessionTimeoutMs()) {
            done.accept(JoinResult.failed(Errors.INVALID_SESSION_TIMEOUT, request.memberId()));
            return;
        }
        Set<String> protocolNames = new HashSet<>();
        request.protocols().forEach(p -> protocolNames.add(p.name()));
        if (request.protocolType() == null || !group.supportsProtocols(request.protocolType(), protocolNames)) {
            done.accept(JoinResult.failed(Errors.INCONSISTENT_GROUP_PROTOCOL, request.memberId()));
            return;
        }
        if (group.is(GroupState.DEAD)) {
            done.accept(JoinResult.failed(Errors.COORDINATOR_NOT_AVAILABLE, request.memberId()));
            return;
        }
        if (request.memberId().isEmpty()) {
            joinNewMember(group, request, done);
        } else {
            joinKnownMember(group, request, done);
        }
    }

    private void joinNewMember(ClassicGroup group, JoinRequest request, Consumer<JoinResult> done) {
        String instanceId = request.groupInstanceId();
        String newMemberId = (instanceId != null ? instanceId : request.clientId()) + "-" + UUID.randomUUID();
        if (instanceId != null) {
            String existing = group.staticMemberId(instanceId);
            if (existing != null) {
                rejoinStaticMember(group, group.member(existing), newMemberId, request, done);
                return;
            }
        }
        if (group.size() + group.pendingCount() >= config.maxGroupSize()) {
            done.accept(JoinResult.failed(Errors.GROUP_MAX_SIZE_REACHED, request.memberId()));
            return;
        }
        if (instanceId == null && request.requireKnownMemberId()) {
            // KIP-394: hand out the id first, so a client that times out and retries does not leave a ghost member.
            group.addPending(newMemberId, timer.schedule(request.sessionTimeoutMs(),
                    () -> expirePendingMember(group, newMemberId)));
            done.accept(new JoinResult(Errors.MEMBER_ID_REQUIRED, -1, null, null, "", newMemberId, false,
                    List.of()));
            return;
        }
        addMemberAndRebalance(group, newMemberId, request, done);
    }

    private void joinKnownMember(ClassicGroup group, JoinRequest request, Consumer<JoinResult> done) {
        String memberId = request.memberId();
        if (group.isPending(memberId)) {
            group.removePending(memberId);
            addMemberAndRebalance(group, memberId, request, done);
            return;
        }
        if (group.isFencedStaticMember(memberId, request.groupInstanceId())) {
            done.accept(JoinResult.failed(Errors.FENCED_INSTANCE_ID, memberId));
            return;
        }
        GroupMember member = group.member(memberId);
        if (member == null) {
            done.accept(JoinResult.failed(Errors.UNKNOWN_MEMBER_ID, memberId));
            return;
        }
        switch (group.state()) {
            case PREPARING_REBALANCE -> updateMemberAndRebalance(group, member, request, done);
            case COMPLETING_REBALANCE -> {
                if (member.sameProtocols(request.protocols())) {
                    // The member lost our answer: give it again rather than starting another rebalance.
                    member.heartbeat(timer.nowMs());
                    done.accept(currentJoinResult(group, member, false));
                } else {
                    updateMemberAndRebalance(group, member, request, done);
                }
            }
            case STABLE -> {
                if (group.isLeader(memberId) || !member.sameProtocols(request.protocols())) {
                    // The leader rejoining asks for a new assignment (e.g. its subscription's metadata changed).
                    updateMemberAndRebalance(group, member, request, done);
                } else {
                    member.heartbeat(timer.nowMs());
                    done.accept(currentJoinResult(group, member, false));
                }
            }
            case EMPTY, DEAD -> done.accept(JoinResult.failed(Errors.UNKNOWN_MEMBER_ID, memberId));
        }
    }

    /**
     * KIP-345: a static member restarting takes its old member's place under a new id; the old one is fenced.
     * In a stable group whose selected protocol stays the same nothing is rebalanced: the member gets the current
     * generation and then its stored assignment from SyncGroup.
     */
    private void rejoinStaticMember(ClassicGroup group, GroupMember old, String newMemberId, JoinRequest request,
                                    Consumer<JoinResult> done) {
        old.completeJoin(JoinResult.failed(Errors.FENCED_INSTANCE_ID, old.memberId()));
        old.completeSync(SyncResult.failed(Errors.FENCED_INSTANCE_ID));
        GroupMember member = group.replaceStaticMember(old, newMemberId);
        member.update(rebalanceTimeoutMs(request), request.sessionTimeoutMs(), request.protocols());
        member.heartbeat(timer.nowMs());
        scheduleSessionExpiry(group, member);
        LOG.info("Static member {} of group {} rejoined as {} (was {})", member.groupInstanceId(), group.groupId(),
                newMemberId, old.memberId());
        switch (group.state()) {
            case STABLE -> {
                boolean leader = group.isLeader(newMemberId);
                // Its subscription bytes differ after a restart (no owned partitions, no generation): what matters
                // is whether the group would still choose the same protocol.
                boolean sameProtocol = group.selectProtocol().equals(group.protocolName());
                if (sameProtocol && (!leader || request.supportsSkipAssignment())) {
                    persistStaticReplacement(group, member, leader, done);
                } else {
                    member.awaitJoin(done);
                    prepareRebalance(group, "static member " + member.groupInstanceId() + " rejoined with new metadata");
                }
            }
            case COMPLETING_REBALANCE -> {
                member.awaitJoin(done);
                prepareRebalance(group, "static member " + member.groupInstanceId() + " rejoined during a rebalance");
            }
            case PREPARING_REBALANCE -> {
                member.awaitJoin(done);
                tryCompleteJoin(group);
            }
            case EMPTY, DEAD -> throw new IllegalStateException("group " + group.groupId()
                    + " holds static member " + member.groupInstanceId() + " in state " + group.state());
        }
    }

    private void persistStaticReplacement(ClassicGroup group, GroupMember member, boolean leader,
                                          Consumer<JoinResult> done) {
        int generation = group.generationId();
        writer.write(group, List.of(groupRecord(group, currentAssignments(group))), error -> {
            if (error != Errors.NONE) {
                done.accept(JoinResult.failed(error, member.memberId()));
                return;
            }
            if (group.generationId() != generation || group.member(member.memberId()) != member) {
                done.accept(JoinResult.failed(Errors.REBALANCE_IN_PROGRESS, member.memberId()));
                return;
            }
            // KIP-814: a rejoining static leader learns the members but keeps the current assignment.
            done.accept(new JoinResult(Errors.NONE, generation, group.protocolType(), group.protocolName(),
                    group.leaderId(), member.memberId(), leader, leader ? joinedMembers(group) : List.of()));
        });
    }

    private void addMemberAndRebalance(ClassicGroup group, String memberId, JoinRequest request,
                                       Consumer<JoinResult> done) {
        GroupMember member = new GroupMember(memberId, request.groupInstanceId(), request.clientId(),
                request.clientHost(), rebalanceTimeoutMs(request), request.sessionTimeoutMs(), request.protocols());
        if (group.isEmptyOfMembers()) {
            group.protocolType(request.protocolType());
        }
        member.isNew(true);
        member.heartbeat(timer.nowMs());
        member.awaitJoin(done);
        group.add(member);
        group.newMemberAdded(true);
        scheduleSessionExpiry(group, member);
        maybePrepareRebalance(group, "member " + memberId + " joined");
    }

    private void updateMemberAndRebalance(ClassicGroup group, GroupMember member, JoinRequest request,
                                          Consumer<JoinResult> done) {
        member.update(rebalanceTimeoutMs(request), request.sessionTimeoutMs(), request.protocols());
        member.heartbeat(timer.nowMs());
        // A second JoinGroup while one is held supersedes it; the first caller just retries.
        member.completeJoin(JoinResult.failed(Errors.REBALANCE_IN_PROGRESS, member.memberId()));
        member.awaitJoin(done);
        maybePrepareRebalance(group, "member " + member.memberId() + " rejoined");
    }

    private static int rebalanceTimeoutMs(JoinRequest request) {
        return request.rebalanceTimeoutMs() < 0 ? request.sessionTimeoutMs() : request.rebalanceTimeoutMs();
    }

    // ---- rebalance phases -------------------------------------------------------------------------

    private void maybePrepareRebalance(ClassicGroup group, String reason) {
        switch (group.state()) {
            case STABLE, COMPLETING_REBALANCE, EMPTY -> prepareRebalance(group, reason);
            case PREPARING_REBALANCE -> tryCompleteJoin(group);
            case DEAD -> { }
        }
    }

    void prepareRebalance(ClassicGroup group, String reason) {
        if (group.is(GroupState.COMPLETING_REBALANCE)) {
            resetAssignmentsAndFailSyncs(group, Errors.REBALANCE_IN_PROGRESS);
        }
        group.cancelSyncTimer();
        boolean initial = group.is(GroupState.EMPTY);
        group.transitionTo(GroupState.PREPARING_REBALANCE, timer.nowMs());
        LOG.info("Group {} prepares to rebalance (generation {}): {}", group.groupId(), group.generationId(), reason);
        if (initial) {
            group.inInitialDelay(true);
            group.newMemberAdded(false);
            int delayMs = config.initialRebalanceDelayMs();
            scheduleInitialDelay(group, delayMs, Math.max(group.rebalanceTimeoutMs() - delayMs, 0));
        } else {
            group.inInitialDelay(false);
            group.joinTimer(timer.schedule(group.rebalanceTimeoutMs(), () -> {
                if (group.is(GroupState.PREPARING_REBALANCE)) {
                    completeJoin(group);
                }
            }));
            tryCompleteJoin(group);
        }
    }

    /** The first rebalance waits for more members: each new one extends the wait, up to the rebalance timeout. */
    private void scheduleInitialDelay(ClassicGroup group, int delayMs, int remainingMs) {
        group.joinTimer(timer.schedule(delayMs, () -> {
            if (!group.is(GroupState.PREPARING_REBALANCE) || !group.inInitialDelay()) {
                return;
            }
            if (group.newMemberAdded() && remainingMs > 0) {
                group.newMemberAdded(false);
                int nextDelayMs = Math.min(config.initialRebalanceDelayMs(), remainingMs);
                scheduleInitialDelay(group, nextDelayMs, remainingMs - nextDelayMs);
            } else {
                completeJoin(group);
            }
        }));
    }

    private void tryCompleteJoin(ClassicGroup group) {
        if (group.is(GroupState.PREPARING_REBALANCE) && !group.inInitialDelay() && group.allMembersJoined()) {
            completeJoin(group);
        }
    }

    /** Ends the join phase: drops dynamic members that did not rejoin, starts the next generation, answers joins. */
    private void completeJoin(ClassicGroup group) {
        group.cancelJoinTimer();
        group.inInitialDelay(false);
        for (GroupMember member : new ArrayList<>(group.members())) {
            // Static members are expected back under their instance id; they are kept (KIP-345).
            if (!member.isAwaitingJoin() && !member.isStatic()) {
                LOG.info("Group {} drops member {}: it did not rejoin in time", group.groupId(), member.memberId());
                removeMember(group, member, Errors.UNKNOWN_MEMBER_ID);
            }
        }
        long nowMs = timer.nowMs();
        group.generationId(group.generationId() + 1);
        if (group.isEmptyOfMembers()) {
            group.protocolName(null);
            group.leaderId(null);
            group.transitionTo(GroupState.EMPTY, nowMs);
            LOG.info("Group {} is empty at generation {}", group.groupId(), group.generationId());
            writer.write(group, List.of(groupRecord(group, Map.of())), error -> {
                if (error != Errors.NONE) {
                    LOG.warn("Could not store empty group {} at generation {}: {}", group.groupId(),
                            group.generationId(), error);
                }
            });
            return;
        }
        group.protocolName(group.selectProtocol());
        if (!isAwaitingJoin(group, group.leaderId())) {
            group.members().stream().filter(GroupMember::isAwaitingJoin).findFirst()
                    .ifPresent(m -> group.leaderId(m.memberId()));
        }
        group.transitionTo(GroupState.COMPLETING_REBALANCE, nowMs);
        LOG.info("Group {} starts generation {} with {} members, protocol {}", group.groupId(),
                group.generationId(), group.size(), group.protocolName());
        List<JoinedMember> allMembers = joinedMembers(group);
        for (GroupMember member : group.members()) {
            member.syncPending(true);
            if (member.isAwaitingJoin()) {
                boolean leader = group.isLeader(member.memberId());
                member.isNew(false);
                member.heartbeat(nowMs);
                member.completeJoin(new JoinResult(Errors.NONE, group.generationId(), group.protocolType(),
                        group.protocolName(), group.leaderId(), member.memberId(), false,
                        leader ? allMembers : List.of()));
            }
        }
        int generation = group.generationId();
        group.syncTimer(timer.schedule(group.rebalanceTimeoutMs(), () -> onSyncTimeout(group, generation)));
    }

    private static boolean isAwaitingJoin(ClassicGroup group, String memberId) {
        GroupMember member = memberId == null ? null : group.member(memberId);
        return member != null && member.isAwaitingJoin();
    }

    /** Members that never sent SyncGroup within the rebalance timeout are removed, and the group rebalances. */
    private void onSyncTimeout(ClassicGroup group, int generation) {
        if (!group.is(GroupState.COMPLETING_REBALANCE) || group.generationId() != generation) {
            return;
        }
        for (GroupMember member : new ArrayList<>(group.members())) {
            if (member.isSyncPending()) {
                LOG.info("Group {} drops member {}: no SyncGroup within the rebalance timeout", group.groupId(),
                        member.memberId());
                removeMember(group, member, Errors.UNKNOWN_MEMBER_ID);
            }
        }
        if (group.is(GroupState.COMPLETING_REBALANCE)) {
            prepareRebalance(group, "members did not sync in time");
        }
    }

    private List<JoinedMember> joinedMembers(ClassicGroup group) {
        List<JoinedMember> members = new ArrayList<>();
        for (GroupMember member : group.members()) {
            members.add(new JoinedMember(member.memberId(), member.groupInstanceId(),
                    member.metadata(group.protocolName())));
        }
        return members;
    }

    private JoinResult currentJoinResult(ClassicGroup group, GroupMember member, boolean skipAssignment) {
        boolean leader = group.isLeader(member.memberId());
        return new JoinResult(Errors.NONE, group.generationId(), group.protocolType(), group.protocolName(),
                group.leaderId(), member.memberId(), skipAssignment, leader ? joinedMembers(group) : List.of());
    }

    // ---- SyncGroup ----------------------------------------------------------------------------------

    void sync(ClassicGroup group, SyncRequest request, Consumer<SyncResult> done) {
        if (group.is(GroupState.DEAD)) {
            done.accept(SyncResult.failed(Errors.COORDINATOR_NOT_AVAILABLE));
            return;
        }
        if (group.isFencedStaticMember(request.memberId(), request.groupInstanceId())) {
            done.accept(SyncResult.failed(Errors.FENCED_INSTANCE_ID));
            return;
        }
        GroupMember member = group.member(request.memberId());
        if (member == null) {
            done.accept(SyncResult.failed(Errors.UNKNOWN_MEMBER_ID));
            return;
        }
        if (request.generationId() != group.generationId()) {
            done.accept(SyncResult.failed(Errors.ILLEGAL_GENERATION));
            return;
        }
        if ((request.protocolType() != null && !request.protocolType().equals(group.protocolType()))
                || (request.protocolName() != null && !request.protocolName().equals(group.protocolName()))) {
            done.accept(SyncResult.failed(Errors.INCONSISTENT_GROUP_PROTOCOL));
            return;
        }
        switch (group.state()) {
            case EMPTY -> done.accept(SyncResult.failed(Errors.UNKNOWN_MEMBER_ID));
            case PREPARING_REBALANCE -> done.accept(SyncResult.failed(Errors.REBALANCE_IN_PROGRESS));
            case COMPLETING_REBALANCE -> {
                member.syncPending(false);
                member.heartbeat(timer.nowMs());
                member.completeSync(SyncResult.failed(Errors.REBALANCE_IN_PROGRESS));
                member.awaitSync(done);
                if (group.isLeader(member.memberId())) {
                    storeAssignment(group, request.assignments());
                }
            }
            case STABLE -> {
                member.heartbeat(timer.nowMs());
                done.accept(new SyncResult(Errors.NONE, group.protocolType(), group.protocolName(),
                        member.assignment()));
            }
            case DEAD -> done.accept(SyncResult.failed(Errors.COORDINATOR_NOT_AVAILABLE));
        }
    }

    /** Persists the leader's assignment; once committed every waiting member gets its part and the group is stable. */
    private void storeAssignment(ClassicGroup group, Map<String, byte[]> leaderAssignments) {
        Map<String, byte[]> assignments = new HashMap<>();
        for (GroupMember member : group.members()) {
            assignments.put(member.memberId(), leaderAssignments.getOrDefault(member.memberId(), new byte[0]));
        }
        int generation = group.generationId();
        writer.write(group, List.of(groupRecord(group, assignments)), error -> {
            if (!group.is(GroupState.COMPLETING_REBALANCE) || group.generationId() != generation) {
                return; // the rebalance moved on meanwhile, and answered the waiting members then
            }
            if (error != Errors.NONE) {
                LOG.warn("Could not store the assignment of group {} generation {}: {}", group.groupId(),
                        generation, error);
                resetAssignmentsAndFailSyncs(group, error);
                prepareRebalance(group, "the assignment could not be stored");
                return;
            }
            group.cancelSyncTimer();
            for (GroupMember member : group.members()) {
                member.assignment(assignments.get(member.memberId()));
                member.syncPending(false);
                member.completeSync(new SyncResult(Errors.NONE, group.protocolType(), group.protocolName(),
                        member.assignment()));
            }
            group.transitionTo(GroupState.STABLE, timer.nowMs());
            LOG.info("Group {} is stable at generation {}", group.groupId(), generation);
        });
    }

    private static void resetAssignmentsAndFailSyncs(ClassicGroup group, Errors error) {
        for (GroupMember member : group.members()) {
            member.assignment(new byte[0]);
            member.completeSync(SyncResult.failed(error));
        }
    }

    // ---- Heartbeat and LeaveGroup -------------------------------------------------------------------

    Errors heartbeat(ClassicGroup group, HeartbeatRequest request) {
        if (group.is(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (group.isFencedStaticMember(request.memberId(), request.groupInstanceId())) {
            return Errors.FENCED_INSTANCE_ID;
        }
        GroupMember member = group.member(request.memberId());
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (!group.knowsGeneration(member.memberId(), request.generationId())) {
            return Errors.ILLEGAL_GENERATION;
        }
        member.heartbeat(timer.nowMs());
        // A member behind the generation (after a downgrade) must rejoin whatever the state.
        return group.is(GroupState.PREPARING_REBALANCE) || request.generationId() != group.generationId()
                ? Errors.REBALANCE_IN_PROGRESS : Errors.NONE;
    }

    LeaveResult leave(ClassicGroup group, List<LeavingMember> leaving) {
        if (group.is(GroupState.DEAD)) {
            return new LeaveResult(Errors.COORDINATOR_NOT_AVAILABLE, List.of());
        }
        List<Errors> errors = new ArrayList<>();
        for (LeavingMember identity : leaving) {
            errors.add(leaveOne(group, identity));
        }
        return new LeaveResult(Errors.NONE, errors);
    }

    private Errors leaveOne(ClassicGroup group, LeavingMember identity) {
        String memberId = identity.memberId() == null ? "" : identity.memberId();
        if (identity.groupInstanceId() != null) {
            String registered = group.staticMemberId(identity.groupInstanceId());
            if (registered == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            if (!memberId.isEmpty() && !memberId.equals(registered)) {
                return Errors.FENCED_INSTANCE_ID;
            }
            memberId = registered;
        } else if (group.removePending(memberId)) {
            tryCompleteJoin(group);
            return Errors.NONE;
        }
        GroupMember member = group.member(memberId);
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        LOG.info("Member {} leaves group {}", memberId, group.groupId());
        removeMemberAndUpdateGroup(group, member, "member " + memberId + " left");
        return Errors.NONE;
    }

    // ---- sessions -----------------------------------------------------------------------------------

    private void scheduleSessionExpiry(ClassicGroup group, GroupMember member) {
        member.sessionTimer(timer.schedule(member.sessionTimeoutMs(), () -> checkSession(group, member)));
    }

    private void checkSession(ClassicGroup group, GroupMember member) {
        if (group.member(member.memberId()) != member || group.is(GroupState.DEAD)) {
            return;
        }
        long nowMs = timer.nowMs();
        long deadlineMs = member.lastHeartbeatMs() + member.sessionTimeoutMs();
        // A held JoinGroup or SyncGroup call keeps its member alive: those phases have their own timeouts.
        if (member.isAwaitingJoin() || member.isAwaitingSync()) {
            member.sessionTimer(timer.schedule(member.sessionTimeoutMs(), () -> checkSession(group, member)));
        } else if (nowMs < deadlineMs) {
            member.sessionTimer(timer.schedule(deadlineMs - nowMs, () -> checkSession(group, member)));
        } else {
            LOG.info("Member {} of group {} expired: no heartbeat for {} ms", member.memberId(), group.groupId(),
                    member.sessionTimeoutMs());
            removeMemberAndUpdateGroup(group, member, "member " + member.memberId() + " session expired");
        }
    }

    private void expirePendingMember(ClassicGroup group, String memberId) {
        if (group.removePending(memberId)) {
            tryCompleteJoin(group);
        }
    }

    /** Starts session timers for members restored from {@code __consumer_offsets}: absent ones expire. */
    void restoreSessions(ClassicGroup group) {
        long nowMs = timer.nowMs();
        for (GroupMember member : group.members()) {
            member.heartbeat(nowMs);
            scheduleSessionExpiry(group, member);
        }
    }

    private void removeMemberAndUpdateGroup(ClassicGroup group, GroupMember member, String reason) {
        removeMember(group, member, Errors.UNKNOWN_MEMBER_ID);
        switch (group.state()) {
            case STABLE, COMPLETING_REBALANCE -> prepareRebalance(group, reason);
            case PREPARING_REBALANCE -> tryCompleteJoin(group);
            case EMPTY, DEAD -> { }
        }
    }

    private static void removeMember(ClassicGroup group, GroupMember member, Errors error) {
        member.completeJoin(JoinResult.failed(error, member.memberId()));
        member.completeSync(SyncResult.failed(error));
        group.remove(member.memberId());
    }

    /** Answers every held call of a group that is going away (deleted or moved with its partition). */
    static void failAllWaiting(ClassicGroup group, Errors error) {
        for (GroupMember member : group.members()) {
            member.completeJoin(JoinResult.failed(error, member.memberId()));
            member.completeSync(SyncResult.failed(error));
        }
        group.cancelAllTimers();
    }

    // ---- records --------------------------------------------------------------------------------------

    private static Map<String, byte[]> currentAssignments(ClassicGroup group) {
        Map<String, byte[]> assignments = new HashMap<>();
        group.members().forEach(m -> assignments.put(m.memberId(), m.assignment()));
        return assignments;
    }

    /** The group's durable form with the given assignments. */
    static GroupMetadata groupRecord(ClassicGroup group, Map<String, byte[]> assignments) {
        List<StoredMember> members = new ArrayList<>();
        for (GroupMember member : group.members()) {
            members.add(new StoredMember(member.memberId(), member.groupInstanceId(), member.clientId(),
                    member.clientHost(), member.rebalanceTimeoutMs(), member.sessionTimeoutMs(),
                    member.metadata(group.protocolName()), assignments.getOrDefault(member.memberId(), new byte[0])));
        }
        return new GroupMetadata(group.groupId(), new GroupMetadataValue(group.protocolType(), group.generationId(),
                group.protocolName(), group.leaderId(), group.stateTimestampMs(), members));
    }

    /** Rebuilds members from their stored form (their protocol is the group's selected one). */
    static void restoreMembers(ClassicGroup group, GroupMetadataValue stored) {
        for (StoredMember stored1 : stored.members()) {
            GroupMember member = new GroupMember(stored1.memberId(), stored1.groupInstanceId(), stored1.clientId(),
                    stored1.clientHost(), stored1.rebalanceTimeoutMs(), stored1.sessionTimeoutMs(),
                    List.of(new Protocol(stored.protocol() == null ? "" : stored.protocol(), stored1.subscription())));
            member.assignment(stored1.assignment());
            group.add(member);
        }
        group.leaderId(stored.leader());
    }
}
