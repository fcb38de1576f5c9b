package io.kraft.broker.group;

import io.kraft.broker.group.CoordinatorRecord.ConsumerGroupPart;
import io.kraft.broker.group.GroupApi.CommitRequest;
import io.kraft.broker.group.consumer.Assignment;
import io.kraft.broker.group.consumer.ConsumerGroup;
import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.broker.group.consumer.ConsumerGroupMember;
import io.kraft.broker.group.consumer.ConsumerGroupMember.CurrentAssignment;
import io.kraft.broker.group.consumer.ConsumerGroupMember.Subscription;
import io.kraft.broker.group.consumer.ConsumerGroupRecord;
import io.kraft.broker.group.consumer.ConsumerGroupView;
import io.kraft.broker.group.consumer.ConsumerHeartbeat;
import io.kraft.broker.group.consumer.ConsumerHeartbeat.Result;
import io.kraft.broker.group.consumer.MemberState;
import io.kraft.broker.group.consumer.PartitionAssignor;
import io.kraft.broker.group.consumer.Reconciler;
import io.kraft.broker.group.consumer.SubscribedTopics;
import io.kraft.broker.group.consumer.TopicCatalog;
import io.kraft.broker.group.consumer.TopicInfo;
import io.kraft.broker.protocol.LogText;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves ConsumerGroupHeartbeat (KIP-848) on the coordinator thread: members join, leave, are fenced or expire; every
 * change of members or subscribed topics bumps the group epoch and recomputes the target assignment with the chosen
 * assignor; each member then reconciles toward its target through {@link Reconciler}. Every change is written as
 * KIP-848 records through the coordinator log before it is answered, so a new coordinator replays the same group.
 */
final class ConsumerGroupHeartbeats {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerGroupHeartbeats.class);
    /**
     * The interval given to a member that waits for partitions other members still hold: the client heartbeats at
     * whatever interval the last answer carried, so it learns of a release within this time rather than after a
     * whole {@code group.consumer.heartbeat.interval.ms}. Only waiting members poll this often, and only while they
     * wait.
     */
    static final int UNRELEASED_PARTITIONS_INTERVAL_MS = 250;

    private final ConsumerGroupConfig config;
    private final CoordinatorTimer timer;
    private final GroupRecordWriter writer;
    private final TopicCatalog topics;
    private final MemberTimers sessions;
    /** A member that does not revoke within its rebalance timeout is removed (KIP-848). */
    private final MemberTimers revocations;
    /** Told when a group went back to the classic protocol, to start its rebalance. */
    private final Consumer<ClassicGroup> downgraded;

    ConsumerGroupHeartbeats(ConsumerGroupConfig config, CoordinatorTimer timer, GroupRecordWriter writer,
                            TopicCatalog topics, Consumer<ClassicGroup> downgraded) {
        this.downgraded = Objects.requireNonNull(downgraded, "downgraded");
        this.config = Objects.requireNonNull(config, "config");
        this.timer = Objects.requireNonNull(timer, "timer");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.topics = Objects.requireNonNull(topics, "topics");
        this.sessions = new MemberTimers(timer);
        this.revocations = new MemberTimers(timer);
    }

    ConsumerGroupConfig config() {
        return config;
    }

    TopicCatalog topics() {
        return topics;
    }

    /** Why the request is malformed, or null (checked before the group is looked up). */
    String invalid(ConsumerHeartbeat request) {
        if (request.groupId() == null || request.groupId().isEmpty()) {
            return "GroupId can't be empty.";
        }
        int epoch = request.memberEpoch();
        if (epoch < ConsumerHeartbeat.STATIC_LEAVE_EPOCH) {
            return "MemberEpoch is invalid: " + epoch;
        }
        if (epoch != 0 && (request.memberId() == null || request.memberId().isEmpty())) {
            return "MemberId can't be empty.";
        }
        if (epoch == 0 && request.topicNames() == null && request.topicRegex() == null) {
            return "SubscribedTopicNames or SubscribedTopicRegex must be set in first request.";
        }
        if (epoch == 0 && request.rebalanceTimeoutMs() == -1) {
            return "RebalanceTimeoutMs must be provided in first request.";
        }
        if (epoch == ConsumerHeartbeat.STATIC_LEAVE_EPOCH && request.instanceId() == null) {
            return "InstanceId can't be null when leaving with epoch -2.";
        }
        return null;
    }

    /**
     * Makes {@code holder} (created by the caller when new) a consumer group if it is not one: an empty group is taken
     * over, a classic group with members is converted when KIP-848's migration policy and its state allow.
     *
     * @return the records storing the conversion (empty when there was none), or null when the group is a classic
     *         group with members this protocol cannot join
     */
    List<CoordinatorRecord> adopt(ClassicGroup holder) {
        if (holder.consumerGroup() != null) {
            return List.of();
        }
        if (holder.isEmptyOfMembers() && holder.pendingCount() == 0) {
            holder.consumerGroup(new ConsumerGroup(holder.groupId()));
            return List.of();
        }
        String refusal = ClassicGroupUpgrade.refusal(config.migrationPolicy(), holder);
        if (refusal != null) {
            LOG.info("Classic group {} is not upgraded to the consumer protocol: {}", LogText.of(holder.groupId()),
                    refusal);
            return null;
        }
        List<ConsumerGroupRecord> converted = new ArrayList<>();
        ConsumerGroup group = ClassicGroupUpgrade.convert(holder, topics, converted);
        holder.cancelAllTimers();
        new ArrayList<>(holder.members()).forEach(m -> holder.remove(m.memberId()));
        holder.consumerGroup(group);
        holder.restoreState(GroupState.STABLE, timer.nowMs());
        group.members().forEach(m -> scheduleSession(holder, m.memberId()));
        List<CoordinatorRecord> records = new ArrayList<>();
        records.add(new CoordinatorRecord.GroupMetadata(holder.groupId(), null));
        converted.forEach(r -> records.add(new ConsumerGroupPart(r)));
        LOG.info("Classic group {} with {} members is upgraded to the consumer protocol at epoch {}",
                LogText.of(holder.groupId()), group.members().size(), group.groupEpoch());
        return records;
    }

    void heartbeat(ClassicGroup holder, ConsumerHeartbeat request, Consumer<Result> done) {
        heartbeat(holder, List.of(), request, done);
    }

    /** Handles one heartbeat; {@code prelude} (an upgrade's records) is written first, whatever the answer. */
    void heartbeat(ClassicGroup holder, List<CoordinatorRecord> prelude, ConsumerHeartbeat request,
                   Consumer<Result> done) {
        ConsumerGroup group = holder.consumerGroup();
        List<ConsumerGroupRecord> records = new ArrayList<>();
        int epoch = request.memberEpoch();
        if (epoch == ConsumerHeartbeat.LEAVE_EPOCH || epoch == ConsumerHeartbeat.STATIC_LEAVE_EPOCH) {
            ConsumerGroupMember member = group.member(request.memberId());
            if (member == null) {
                done.accept(Result.failed(Errors.UNKNOWN_MEMBER_ID, "Member " + request.memberId() + " is unknown."));
                return;
            }
            List<CoordinatorRecord> downgrade = List.of();
            if (epoch == ConsumerHeartbeat.STATIC_LEAVE_EPOCH) {
                staticLeave(group, member, records);
            } else {
                LOG.info("Member {} leaves consumer group {} at group epoch {}", LogText.of(member.memberId()),
                        LogText.of(group.groupId()), group.groupEpoch());
                downgrade = removeMember(holder, member, records);
            }
            write(holder, downgrade, records, done,
                    new Result(Errors.NONE.code(), null, member.memberId(), epoch, 0, null));
            return;
        }
        ConsumerGroupMember member = group.member(request.memberId());
        boolean changed = false;
        if (epoch == 0) {
            ConsumerGroupMember holderOfInstance = group.staticMember(request.instanceId());
            if (member == null && holderOfInstance != null) {
                if (holderOfInstance.memberEpoch() != ConsumerHeartbeat.STATIC_LEAVE_EPOCH) {
                    write(holder, prelude, List.of(), done, Result.failed(Errors.UNRELEASED_INSTANCE_ID,
                            "Static member " + holderOfInstance.memberId() + " with instance id " + request.instanceId()
                            + " has not left the group yet."));
                    return;
                }
                member = replaceStatic(group, holderOfInstance, request, records);
            } else if (member == null) {
                if (group.members().size() >= config.maxSize()) {
                    write(holder, prelude, List.of(), done, Result.failed(Errors.GROUP_MAX_SIZE_REACHED,
                            "The group reached its maximum size of " + config.maxSize() + "."));
                    return;
                }
                String memberId = request.memberId() == null || request.memberId().isEmpty()
                        ? UUID.randomUUID().toString() : request.memberId();
                member = new ConsumerGroupMember(memberId, merge(null, request));
                group.put(member);
                changed = true;
                LOG.info("Member {} joins consumer group {}", LogText.of(memberId), LogText.of(group.groupId()));
            }
        } else {
            if (member == null) {
                done.accept(Result.failed(Errors.UNKNOWN_MEMBER_ID, "Member " + request.memberId() + " is unknown."));
                return;
            }
            if (epoch != member.memberEpoch() && !lostResponse(member, request)) {
                done.accept(Result.failed(Errors.FENCED_MEMBER_EPOCH, "The member epoch " + epoch
                        + " is fenced; the current epoch is " + member.memberEpoch() + "."));
                return;
            }
        }
        Subscription updated = merge(member.subscription(), request);
        if (!updated.equals(member.subscription())) {
            changed |= !sameSubscription(updated, member.subscription());
            member.subscription(updated);
            records.add(new ConsumerGroupRecord.MemberMetadata(group.groupId(), member.memberId(), updated));
        } else if (changed) {
            records.add(new ConsumerGroupRecord.MemberMetadata(group.groupId(), member.memberId(), updated));
        }
        Map<UUID, TopicInfo> subscribed = SubscribedTopics.of(group, topics);
        if (!subscribed.equals(group.subscribedTopics())) {
            group.subscribedTopics(subscribed);
            changed = true;
        }
        if (changed) {
            bumpEpoch(group, records);
        }
        reconcile(group, member, request.owned(), records);
        holder.restoreState(GroupState.STABLE, timer.nowMs());
        scheduleSession(holder, member.memberId());
        watchRevocation(holder, member);
        Result answer = new Result(Errors.NONE.code(), null, member.memberId(), member.memberEpoch(),
                heartbeatIntervalMs(member), member.assigned());
        write(holder, prelude, records, done, answer);
    }

    private int heartbeatIntervalMs(ConsumerGroupMember member) {
        return member.current().state() == MemberState.UNRELEASED_PARTITIONS
                ? Math.min(config.heartbeatIntervalMs(), UNRELEASED_PARTITIONS_INTERVAL_MS)
                : config.heartbeatIntervalMs();
    }

    /**
     * A static member leaving for a while (epoch -2): it stays, with its partitions, until its instance id joins
     * again or its session ends. Its real epoch is kept as the previous one.
     */
    private static void staticLeave(ConsumerGroup group, ConsumerGroupMember member,
                                    List<ConsumerGroupRecord> records) {
        CurrentAssignment current = member.current();
        member.current(new CurrentAssignment(ConsumerHeartbeat.STATIC_LEAVE_EPOCH, current.memberEpoch(),
                current.state(), current.assigned(), current.pendingRevocation()));
        records.add(new ConsumerGroupRecord.CurrentMember(group.groupId(), member.memberId(), member.current()));
        LOG.info("Static member {} (instance {}) of consumer group {} left for now, keeping its partitions",
                LogText.of(member.memberId()), LogText.of(member.subscription().instanceId()),
                LogText.of(group.groupId()));
    }

    /**
     * The instance id of a static member that left with epoch -2 joins again under a new member id: the new member
     * takes its epoch and partitions without a new group epoch, so the group does not rebalance (KIP-848).
     */
    private ConsumerGroupMember replaceStatic(ConsumerGroup group, ConsumerGroupMember previous,
                                              ConsumerHeartbeat request, List<ConsumerGroupRecord> records) {
        String memberId = request.memberId() == null || request.memberId().isEmpty()
                ? UUID.randomUUID().toString() : request.memberId();
        return replaceStatic(group, previous, memberId, merge(previous.subscription(), request), records);
    }

    /**
     * A static member is replaced by {@code memberId} (the same instance id restarted): the new member takes its
     * epoch, partitions and target, with no new group epoch; the caller updates its subscription if it changed.
     */
    ConsumerGroupMember replaceStatic(ConsumerGroup group, ConsumerGroupMember previous, String memberId,
                                      Subscription subscription, List<ConsumerGroupRecord> records) {
        Assignment target = group.target(previous.memberId());
        CurrentAssignment current = previous.current();
        // One that left with epoch -2 keeps its real epoch as the previous one.
        int epoch = current.memberEpoch() == ConsumerHeartbeat.STATIC_LEAVE_EPOCH
                ? current.previousMemberEpoch() : current.memberEpoch();
        cancelSession(group.groupId(), previous.memberId());
        group.remove(previous.memberId());
        records.add(new ConsumerGroupRecord.CurrentMember(group.groupId(), previous.memberId(), null));
        records.add(new ConsumerGroupRecord.TargetMember(group.groupId(), previous.memberId(), null));
        records.add(new ConsumerGroupRecord.MemberMetadata(group.groupId(), previous.memberId(), null));
        ConsumerGroupMember member = new ConsumerGroupMember(memberId, subscription);
        member.current(new CurrentAssignment(epoch, epoch, current.state(), current.assigned(),
                current.pendingRevocation()));
        group.put(member);
        group.target(memberId, target);
        records.add(new ConsumerGroupRecord.MemberMetadata(group.groupId(), memberId, member.subscription()));
        records.add(new ConsumerGroupRecord.TargetMember(group.groupId(), memberId, target));
        records.add(new ConsumerGroupRecord.CurrentMember(group.groupId(), memberId, member.current()));
        LOG.info("Static member {} (instance {}) replaces {} in consumer group {}", LogText.of(memberId),
                LogText.of(subscription.instanceId()), LogText.of(previous.memberId()), LogText.of(group.groupId()));
        return member;
    }

    /** A member that missed our last answer retries with its previous epoch, owning nothing it should not. */
    private static boolean lostResponse(ConsumerGroupMember member, ConsumerHeartbeat request) {
        return request.memberEpoch() == member.previousMemberEpoch() && request.owned() != null
                && request.owned().minus(member.assigned()).isEmpty();
    }

    private static Subscription merge(Subscription current, ConsumerHeartbeat request) {
        String instanceId = request.instanceId() != null ? request.instanceId()
                : current == null ? null : current.instanceId();
        String rackId = request.rackId() != null ? request.rackId() : current == null ? null : current.rackId();
        int rebalanceTimeoutMs = request.rebalanceTimeoutMs() != -1 ? request.rebalanceTimeoutMs()
                : current == null ? -1 : current.rebalanceTimeoutMs();
        List<String> names = request.topicNames() != null ? request.topicNames()
                : current == null ? List.of() : current.topicNames();
        String regex = request.topicRegex() != null ? (request.topicRegex().isEmpty() ? null : request.topicRegex())
                : current == null ? null : current.topicRegex();
        String assignor = request.serverAssignor() != null ? request.serverAssignor()
                : current == null ? null : current.serverAssignor();
        return new Subscription(instanceId, rackId, request.clientId(), request.clientHost(), names, regex, assignor,
                rebalanceTimeoutMs, null);
    }

    /** Whether two subscriptions assign alike (the client id or host changing does not). */
    private static boolean sameSubscription(Subscription a, Subscription b) {
        return a.topicNames().equals(b.topicNames()) && Objects.equals(a.topicRegex(), b.topicRegex())
                && Objects.equals(a.serverAssignor(), b.serverAssignor()) && Objects.equals(a.rackId(), b.rackId());
    }

    /** Members or topics changed: a new group epoch and, at it, a new target assignment. */
    void bumpEpoch(ConsumerGroup group, List<ConsumerGroupRecord> records) {
        int epoch = group.groupEpoch() + 1;
        group.groupEpoch(epoch);
        records.add(new ConsumerGroupRecord.GroupEpoch(group.groupId(), epoch));
        PartitionAssignor assignor = chooseAssignor(group);
        List<PartitionAssignor.Subscriber> subscribers = new ArrayList<>();
        for (ConsumerGroupMember m : group.members()) {
            subscribers.add(new PartitionAssignor.Subscriber(m.memberId(),
                    SubscribedTopics.idsOf(m.subscription(), group.subscribedTopics())));
        }
        Map<String, Assignment> targets = assignor.assign(subscribers, group.subscribedTopics(),
                Map.copyOf(group.targets()));
        targets.forEach((memberId, target) -> {
            if (!target.equals(group.targets().get(memberId))) {
                group.target(memberId, target);
                records.add(new ConsumerGroupRecord.TargetMember(group.groupId(), memberId, target));
            }
        });
        group.assignmentEpoch(epoch);
        records.add(new ConsumerGroupRecord.TargetAssignmentEpoch(group.groupId(), epoch));
        LOG.info("Consumer group {} is at epoch {} with {} members ({} assignor)", LogText.of(group.groupId()),
                epoch, group.members().size(), assignor.name());
    }

    /** ConsumerGroupDescribe of a group held by {@code holder} (null: it does not exist). */
    ConsumerGroupView describe(String groupId, ClassicGroup holder) {
        if (holder == null || holder.is(GroupState.DEAD)) {
            return ConsumerGroupView.failed(groupId, Errors.GROUP_ID_NOT_FOUND, "Group " + groupId + " not found.");
        }
        if (holder.consumerGroup() == null) {
            return ConsumerGroupView.failed(groupId, Errors.GROUP_ID_NOT_FOUND,
                    "Group " + groupId + " is not a consumer group.");
        }
        return ConsumerGroupView.of(holder.consumerGroup(), chooseAssignor(holder.consumerGroup()).name());
    }

    /** The assignor the first member naming a configured one asked for, else the configured default. */
    private PartitionAssignor chooseAssignor(ConsumerGroup group) {
        for (ConsumerGroupMember m : group.members()) {
            String wanted = m.subscription().serverAssignor();
            if (wanted != null && config.assignor(wanted, false) != null) {
                return config.assignor(wanted, false);
            }
        }
        return config.assignors().get(0);
    }

    static void reconcile(ConsumerGroup group, ConsumerGroupMember member, Assignment owned,
                                  List<ConsumerGroupRecord> records) {
        CurrentAssignment next = Reconciler.next(member.current(), group.target(member.memberId()),
                group.assignmentEpoch(), owned, (topic, id) -> group.ownedByOther(member.memberId(), topic, id));
        if (!next.equals(member.current())) {
            member.current(next);
            records.add(new ConsumerGroupRecord.CurrentMember(group.groupId(), member.memberId(), next));
        }
    }

    /**
     * Removes the member with a new group epoch; when only classic members remain and the policy allows, the group
     * goes back to the classic protocol (KIP-848's downgrade), whose records are returned (else none).
     */
    List<CoordinatorRecord> removeMember(ClassicGroup holder, ConsumerGroupMember member,
                                         List<ConsumerGroupRecord> records) {
        ConsumerGroup group = holder.consumerGroup();
        cancelSession(group.groupId(), member.memberId());
        group.remove(member.memberId());
        records.add(new ConsumerGroupRecord.CurrentMember(group.groupId(), member.memberId(), null));
        records.add(new ConsumerGroupRecord.TargetMember(group.groupId(), member.memberId(), null));
        records.add(new ConsumerGroupRecord.MemberMetadata(group.groupId(), member.memberId(), null));
        group.subscribedTopics(SubscribedTopics.of(group, topics));
        bumpEpoch(group, records);
        if (!ConsumerGroupDowngrade.due(config.migrationPolicy(), group)) {
            return List.of();
        }
        unload(holder);
        List<CoordinatorRecord> downgrade = ConsumerGroupDowngrade.convert(holder, timer.nowMs());
        LOG.info("Consumer group {} has only classic members left and goes back to the classic protocol at "
                + "generation {}", LogText.of(holder.groupId()), holder.generationId());
        downgraded.accept(holder);
        return downgrade;
    }

    /** Writes {@code prelude} then {@code records} in one batch, then answers; nothing to write answers at once. */
    void write(ClassicGroup holder, List<CoordinatorRecord> prelude, List<ConsumerGroupRecord> records,
               Consumer<Result> done, Result answer) {
        if (holder.consumerGroup() != null && holder.consumerGroup().isEmpty()) {
            holder.restoreState(GroupState.EMPTY, timer.nowMs());
        }
        if (records.isEmpty() && prelude.isEmpty()) {
            done.accept(answer);
            return;
        }
        List<CoordinatorRecord> wrapped = new ArrayList<>(prelude.size() + records.size());
        records.forEach(r -> wrapped.add(new ConsumerGroupPart(r)));
        // A downgrade's records follow the removal that caused it; an upgrade's precede the join.
        if (holder.consumerGroup() == null) {
            wrapped.addAll(prelude);
        } else {
            wrapped.addAll(0, prelude);
        }
        writer.write(holder, wrapped, error -> done.accept(error == Errors.NONE ? answer
                : Result.failed(error, null)));
    }

    // ---- sessions -------------------------------------------------------------------------------

    /** A classic member keeps the session timeout of its JoinGroup; others get the group's. */
    void scheduleSession(ClassicGroup holder, String memberId) {
        ConsumerGroupMember member = holder.consumerGroup().member(memberId);
        int timeoutMs = member != null && member.isClassic() ? member.subscription().classic().sessionTimeoutMs()
                : config.sessionTimeoutMs();
        sessions.schedule(holder.groupId(), memberId, timeoutMs, () -> expire(holder, memberId,
                "after " + timeoutMs + " ms without a heartbeat"));
    }

    void cancelSession(String groupId, String memberId) {
        sessions.cancel(groupId, memberId);
        revocations.cancel(groupId, memberId);
    }

    /** A member told to revoke partitions has its rebalance timeout to do so; the deadline is set once per wait. */
    void watchRevocation(ClassicGroup holder, ConsumerGroupMember member) {
        String groupId = holder.groupId();
        if (member.state() != MemberState.UNREVOKED_PARTITIONS) {
            revocations.cancel(groupId, member.memberId());
            return;
        }
        int timeoutMs = member.subscription().rebalanceTimeoutMs();
        if (timeoutMs > 0 && !revocations.has(groupId, member.memberId())) {
            String memberId = member.memberId();
            revocations.schedule(groupId, memberId, timeoutMs, () -> {
                ConsumerGroup group = holder.consumerGroup();
                ConsumerGroupMember current = group == null ? null : group.member(memberId);
                if (current != null && current.state() == MemberState.UNREVOKED_PARTITIONS) {
                    expire(holder, memberId, "as it did not revoke its partitions within " + timeoutMs + " ms");
                }
            });
        }
    }

    private void expire(ClassicGroup holder, String memberId, String why) {
        ConsumerGroup group = holder.consumerGroup();
        if (group == null || holder.is(GroupState.DEAD)) {
            return;
        }
        ConsumerGroupMember member = group.member(memberId);
        if (member == null) {
            return;
        }
        List<ConsumerGroupRecord> records = new ArrayList<>();
        LOG.info("Member {} of consumer group {} is removed {}; group epoch {}", LogText.of(memberId),
                LogText.of(group.groupId()), why, group.groupEpoch() + 1);
        List<CoordinatorRecord> downgrade = removeMember(holder, member, records);
        write(holder, downgrade, records, result -> {
            if (result.errorCode() != Errors.NONE.code()) {
                LOG.warn("Could not write the expiry of member {} of group {}: error {}", LogText.of(memberId),
                        LogText.of(group.groupId()), result.errorCode());
            }
        }, Result.failed(Errors.NONE, null));
    }

    /** After a load: every member gets a full session to heartbeat to its new coordinator. */
    void restore(ClassicGroup holder) {
        ConsumerGroup group = holder.consumerGroup();
        group.subscribedTopics(SubscribedTopics.of(group, topics));
        holder.restoreState(group.isEmpty() ? GroupState.EMPTY : GroupState.STABLE, timer.nowMs());
        group.members().forEach(m -> scheduleSession(holder, m.memberId()));
    }

    /** The group was unloaded or deleted: its sessions stop. */
    void unload(ClassicGroup holder) {
        sessions.cancelAll(holder.groupId());
        revocations.cancelAll(holder.groupId());
    }

    /**
     * OffsetCommit to a consumer group (KIP-848): a member commits with its current epoch, or with an older one
     * (a heartbeat answer crossed the commit) only for partitions it still owns, so no offset of a partition that
     * moved is accepted; else STALE_MEMBER_EPOCH. A commit without member (admin tools, assign() consumers) only while
     * the group has no members.
     */
    Errors validateCommit(ClassicGroup holder, CommitRequest request) {
        ConsumerGroup group = holder.consumerGroup();
        boolean anonymous = request.memberId() == null || request.memberId().isEmpty();
        if (anonymous && request.generationId() < 0) {
            return group.isEmpty() ? Errors.NONE : Errors.UNKNOWN_MEMBER_ID;
        }
        ConsumerGroupMember member = group.member(request.memberId());
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (request.generationId() == member.memberEpoch()) {
            return Errors.NONE;
        }
        if (request.generationId() > member.memberEpoch() || request.generationId() < member.previousMemberEpoch()) {
            return Errors.STALE_MEMBER_EPOCH;
        }
        Map<String, TopicInfo> byName = new HashMap<>();
        group.subscribedTopics().values().forEach(t -> byName.put(t.name(), t));
        for (GroupApi.PartitionCommit commit : request.partitions()) {
            TopicInfo topic = byName.get(commit.partition().topic());
            if (topic == null || !(member.assigned().contains(topic.id(), commit.partition().partition())
                    || member.pendingRevocation().contains(topic.id(), commit.partition().partition()))) {
                return Errors.STALE_MEMBER_EPOCH;
            }
        }
        return Errors.NONE;
    }
}
