package io.kraft.broker.group;

import io.kraft.broker.group.GroupApi.HeartbeatRequest;
import io.kraft.broker.group.GroupApi.JoinRequest;
import io.kraft.broker.group.GroupApi.JoinResult;
import io.kraft.broker.group.GroupApi.LeaveResult;
import io.kraft.broker.group.GroupApi.LeavingMember;
import io.kraft.broker.group.GroupApi.Protocol;
import io.kraft.broker.group.GroupApi.SyncRequest;
import io.kraft.broker.group.GroupApi.SyncResult;
import io.kraft.broker.group.consumer.Assignment;
import io.kraft.broker.group.consumer.ConsumerGroup;
import io.kraft.broker.group.consumer.ConsumerGroupMember;
import io.kraft.broker.group.consumer.ConsumerGroupMember.ClassicMetadata;
import io.kraft.broker.group.consumer.ConsumerGroupMember.ClassicProtocol;
import io.kraft.broker.group.consumer.ConsumerGroupMember.Subscription;
import io.kraft.broker.group.consumer.ConsumerGroupRecord;
import io.kraft.broker.group.consumer.ConsumerHeartbeat;
import io.kraft.broker.group.consumer.ConsumerHeartbeat.Result;
import io.kraft.broker.group.consumer.MemberState;
import io.kraft.broker.group.consumer.SubscribedTopics;
import io.kraft.broker.group.consumer.TopicInfo;
import io.kraft.broker.protocol.LogText;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves JoinGroup, SyncGroup, Heartbeat and LeaveGroup of members that speak the classic protocol inside a consumer
 * group (KIP-848: after an online upgrade, or joining one later). Such a member is an ordinary consumer-group member
 * reconciled by {@link io.kraft.broker.group.consumer.Reconciler}: its JoinGroup carries its subscription and the
 * partitions it still owns, and is answered with its epoch as the generation; SyncGroup gives it the partitions it
 * may own now (never one another member still holds); Heartbeat answers REBALANCE_IN_PROGRESS while it has
 * partitions to give up or to take, or its target moved to a newer epoch, so that it joins again.
 */
final class ClassicMembersOfConsumerGroup {
    private static final Logger LOG = LoggerFactory.getLogger(ClassicMembersOfConsumerGroup.class);

    private final GroupConfig config;
    private final CoordinatorTimer timer;
    private final ConsumerGroupHeartbeats consumerGroups;

    ClassicMembersOfConsumerGroup(GroupConfig config, CoordinatorTimer timer, ConsumerGroupHeartbeats consumerGroups) {
        this.config = config;
        this.timer = timer;
        this.consumerGroups = consumerGroups;
    }

    /** Whether classic members may join a consumer group that has members (the migration policy is not disabled). */
    boolean accepts() {
        return consumerGroups.config().migrationPolicy().allowsUpgrade()
                || consumerGroups.config().migrationPolicy().allowsDowngrade();
    }

    void join(ClassicGroup holder, JoinRequest request, Consumer<JoinResult> done) {
        ConsumerGroup group = holder.consumerGroup();
        String memberId = request.memberId();
        if (request.sessionTimeoutMs() < config.minSessionTimeoutMs()
                || request.sessionTimeoutMs() > config.maxSessionTimeoutMs()) {
            done.accept(JoinResult.failed(Errors.INVALID_SESSION_TIMEOUT, memberId));
            return;
        }
        Optional<Set<String>> topicNames = request.protocols().isEmpty() ? Optional.empty()
                : ConsumerProtocol.subscribedTopics(request.protocols().get(0).metadata());
        if (!ConsumerProtocol.PROTOCOL_TYPE.equals(request.protocolType()) || topicNames.isEmpty()) {
            done.accept(JoinResult.failed(Errors.INCONSISTENT_GROUP_PROTOCOL, memberId));
            return;
        }
        ConsumerGroupMember member = memberId.isEmpty() ? null : group.member(memberId);
        if (memberId.isEmpty()) {
            String newId = (request.groupInstanceId() != null ? request.groupInstanceId() : request.clientId())
                    + "-" + UUID.randomUUID();
            if (request.groupInstanceId() == null && request.requireKnownMemberId()) {
                // KIP-394: the id first; the member joins with it next.
                holder.addPending(newId, timer.schedule(request.sessionTimeoutMs(), () -> holder.removePending(newId)));
                done.accept(new JoinResult(Errors.MEMBER_ID_REQUIRED, -1, null, null, "", newId, false, List.of()));
                return;
            }
            memberId = newId;
        } else if (member == null ? !holder.removePending(memberId) : !member.isClassic()) {
            // KIP-345: a replaced static member is fenced rather than unknown.
            done.accept(JoinResult.failed(member == null && group.staticMember(request.groupInstanceId()) != null
                    ? Errors.FENCED_INSTANCE_ID : Errors.UNKNOWN_MEMBER_ID, memberId));
            return;
        }
        List<ConsumerGroupRecord> records = new ArrayList<>();
        ConsumerGroupMember holderOfInstance = group.staticMember(request.groupInstanceId());
        if (holderOfInstance != null && !holderOfInstance.memberId().equals(memberId)) {
            if (!request.memberId().isEmpty() || !replaceable(holderOfInstance)) {
                done.accept(JoinResult.failed(Errors.FENCED_INSTANCE_ID, memberId));
                return;
            }
            // KIP-345: the instance restarted; it takes its predecessor's place, which is fenced from now on.
            member = consumerGroups.replaceStatic(group, holderOfInstance, memberId,
                    holderOfInstance.subscription(), records);
        }
        if (member == null && group.members().size() >= config.maxGroupSize()) {
            done.accept(JoinResult.failed(Errors.GROUP_MAX_SIZE_REACHED, memberId));
            return;
        }
        Subscription subscription = subscription(request, topicNames.get());
        boolean changed = member == null;
        if (member == null) {
            member = new ConsumerGroupMember(memberId, subscription);
            group.put(member);
            records.add(new ConsumerGroupRecord.MemberMetadata(group.groupId(), memberId, subscription));
            LOG.info("Classic member {} joins consumer group {}", LogText.of(memberId), LogText.of(group.groupId()));
        } else if (!subscription.equals(member.subscription())) {
            changed = !subscription.topicNames().equals(member.subscription().topicNames());
            member.subscription(subscription);
            records.add(new ConsumerGroupRecord.MemberMetadata(group.groupId(), memberId, subscription));
        }
        Map<UUID, TopicInfo> subscribed = SubscribedTopics.of(group, consumerGroups.topics());
        if (!subscribed.equals(group.subscribedTopics())) {
            group.subscribedTopics(subscribed);
            changed = true;
        }
        if (changed) {
            consumerGroups.bumpEpoch(group, records);
        }
        Assignment owned = ClassicGroupUpgrade.byId(
                ConsumerProtocol.ownedPartitions(request.protocols().get(0).metadata()), consumerGroups.topics());
        ConsumerGroupHeartbeats.reconcile(group, member, owned, records);
        if (member.state() == MemberState.UNREVOKED_PARTITIONS) {
            // The JoinGroup itself may show them given up already (an eager member revokes all before joining).
            ConsumerGroupHeartbeats.reconcile(group, member, owned, records);
        }
        LOG.debug("Classic member {} of consumer group {} joined: epoch {}, {}, owns {}, revoking {}",
                LogText.of(memberId), LogText.of(group.groupId()), member.memberEpoch(), member.state().label(),
                member.assigned().size(), member.pendingRevocation().size());
        consumerGroups.scheduleSession(holder, memberId);
        consumerGroups.watchRevocation(holder, member);
        ConsumerGroupMember joined = member;
        JoinResult answer = new JoinResult(Errors.NONE, member.memberEpoch(), ConsumerProtocol.PROTOCOL_TYPE,
                request.protocols().get(0).name(), "", memberId, false, List.of());
        consumerGroups.write(holder, List.of(), records, result -> done.accept(result.errorCode() == 0 ? answer
                : JoinResult.failed(Errors.forCode(result.errorCode()), joined.memberId())),
                Result.failed(Errors.NONE, null));
    }

    /**
     * Whether a JoinGroup of the same instance id under a new member id replaces {@code previous}: a classic member,
     * or a consumer-protocol one that left with epoch -2; an active consumer-protocol member keeps its instance id.
     */
    private static boolean replaceable(ConsumerGroupMember previous) {
        return previous.isClassic() || previous.memberEpoch() == ConsumerHeartbeat.STATIC_LEAVE_EPOCH;
    }

    private static Subscription subscription(JoinRequest request, Set<String> topicNames) {
        List<ClassicProtocol> protocols = new ArrayList<>();
        for (Protocol protocol : request.protocols()) {
            protocols.add(new ClassicProtocol(protocol.name(), protocol.metadata()));
        }
        int rebalanceTimeoutMs = request.rebalanceTimeoutMs() < 0 ? request.sessionTimeoutMs()
                : request.rebalanceTimeoutMs();
        return new Subscription(request.groupInstanceId(), null, request.clientId(), request.clientHost(),
                topicNames.stream().sorted().toList(), null, null, rebalanceTimeoutMs,
                new ClassicMetadata(request.sessionTimeoutMs(), protocols));
    }

    void sync(ClassicGroup holder, SyncRequest request, Consumer<SyncResult> done) {
        ConsumerGroupMember member = classicMember(holder.consumerGroup(), request.memberId());
        Errors refused = check(holder.consumerGroup(), member, request.groupInstanceId(), request.generationId());
        if (refused == Errors.NONE && ((request.protocolType() != null
                && !ConsumerProtocol.PROTOCOL_TYPE.equals(request.protocolType()))
                || (request.protocolName() != null && !offers(member, request.protocolName())))) {
            refused = Errors.INCONSISTENT_GROUP_PROTOCOL;
        }
        if (refused != Errors.NONE) {
            done.accept(SyncResult.failed(refused));
            return;
        }
        consumerGroups.scheduleSession(holder, member.memberId());
        String protocolName = request.protocolName() != null ? request.protocolName()
                : member.subscription().classic().protocols().get(0).name();
        done.accept(new SyncResult(Errors.NONE, ConsumerProtocol.PROTOCOL_TYPE, protocolName, ConsumerProtocol
                .assignment(ConsumerGroupDowngrade.byName(member.assigned(), holder.consumerGroup()))));
    }

    Errors heartbeat(ClassicGroup holder, HeartbeatRequest request) {
        ConsumerGroup group = holder.consumerGroup();
        ConsumerGroupMember member = classicMember(group, request.memberId());
        Errors refused = check(group, member, request.groupInstanceId(), request.generationId());
        if (refused != Errors.NONE) {
            return refused;
        }
        consumerGroups.scheduleSession(holder, member.memberId());
        boolean rejoin = mustRejoin(group, member);
        LOG.debug("Classic member {} of consumer group {} heartbeats at epoch {} ({}): {}",
                LogText.of(member.memberId()), LogText.of(group.groupId()), member.memberEpoch(), member.state().label(), rejoin ? "rejoin" : "ok");
        return rejoin ? Errors.REBALANCE_IN_PROGRESS : Errors.NONE;
    }

    /**
     * Whether the member should join again: it has partitions to give up, partitions it waits for were released, or
     * its target is at a newer epoch than its generation.
     */
    private static boolean mustRejoin(ConsumerGroup group, ConsumerGroupMember member) {
        return switch (member.state()) {
            case UNREVOKED_PARTITIONS -> true;
            case UNRELEASED_PARTITIONS -> !group.target(member.memberId()).minus(member.assigned())
                    .filter((topic, id) -> !group.ownedByOther(member.memberId(), topic, id)).isEmpty();
            case STABLE -> member.memberEpoch() != group.assignmentEpoch();
        };
    }

    /**
     * LeaveGroup; once the group has gone back to the classic protocol (its last consumer-protocol member gone),
     * the remaining leavers are {@code classicLeave}'s.
     */
    LeaveResult leave(ClassicGroup holder, List<LeavingMember> leaving,
                      BiFunction<ClassicGroup, LeavingMember, Errors> classicLeave) {
        List<Errors> errors = new ArrayList<>();
        for (LeavingMember identity : leaving) {
            ConsumerGroup group = holder.consumerGroup();
            if (group == null) {
                errors.add(classicLeave.apply(holder, identity));
                continue;
            }
            ConsumerGroupMember member = identity.groupInstanceId() != null
                    ? group.staticMember(identity.groupInstanceId()) : group.member(identity.memberId());
            if (member == null || !member.isClassic()) {
                errors.add(Errors.UNKNOWN_MEMBER_ID);
                continue;
            }
            if (identity.memberId() != null && !identity.memberId().isEmpty()
                    && !identity.memberId().equals(member.memberId())) {
                errors.add(Errors.FENCED_INSTANCE_ID);
                continue;
            }
            LOG.info("Classic member {} leaves consumer group {}", LogText.of(member.memberId()),
                    LogText.of(group.groupId()));
            List<ConsumerGroupRecord> records = new ArrayList<>();
            List<CoordinatorRecord> downgrade = consumerGroups.removeMember(holder, member, records);
            consumerGroups.write(holder, downgrade, records, result -> {
                if (result.errorCode() != Errors.NONE.code()) {
                    LOG.warn("Could not write the leave of member {} of group {}: error {}",
                            LogText.of(member.memberId()), LogText.of(holder.groupId()), result.errorCode());
                }
            }, Result.failed(Errors.NONE, null));
            errors.add(Errors.NONE);
        }
        return new LeaveResult(Errors.NONE, errors);
    }

    private static ConsumerGroupMember classicMember(ConsumerGroup group, String memberId) {
        ConsumerGroupMember member = memberId == null ? null : group.member(memberId);
        return member != null && member.isClassic() ? member : null;
    }

    private static Errors check(ConsumerGroup group, ConsumerGroupMember member, String instanceId, int generation) {
        if (member == null) {
            ConsumerGroupMember holderOfInstance = group.staticMember(instanceId);
            return holderOfInstance != null ? Errors.FENCED_INSTANCE_ID : Errors.UNKNOWN_MEMBER_ID;
        }
        if (instanceId != null && !instanceId.equals(member.subscription().instanceId())) {
            return Errors.FENCED_INSTANCE_ID;
        }
        return generation == member.memberEpoch() ? Errors.NONE : Errors.ILLEGAL_GENERATION;
    }

    private static boolean offers(ConsumerGroupMember member, String protocolName) {
        return member.subscription().classic().protocols().stream().anyMatch(p -> p.name().equals(protocolName));
    }
}
