package io.kraft.broker.group;

import io.kraft.broker.group.consumer.ConsumerGroup;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One classic-protocol group as its coordinator holds it: state and generation, members (static ones also by
 * instance id), members that were handed an id and must rejoin with it (KIP-394), the selected protocol and
 * leader, its committed offsets, and its pending timers. Owned by the coordinator thread.
 */
final class ClassicGroup {
    private final String groupId;
    private GroupState state = GroupState.EMPTY;
    private long stateTimestampMs = -1;
    private int generationId;
    private String protocolType;
    private String protocolName;
    private String leaderId;
    private final Map<String, GroupMember> members = new LinkedHashMap<>();
    private final Map<String, String> staticMembers = new HashMap<>();
    private final Map<String, CoordinatorTimer.Cancellable> pendingMembers = new HashMap<>();
    private final TreeMap<OffsetKey, OffsetAndMetadata> offsets = new TreeMap<>();
    private final Map<OffsetKey, Integer> pendingCommits = new HashMap<>();
    /** The write position of each committed offset, to order it against transactional ones. */
    private final Map<OffsetKey, Long> offsetWritePositions = new HashMap<>();
    private final TransactionalOffsets transactionalOffsets = new TransactionalOffsets();
    private long nextWritePosition;
    private boolean newMemberAdded;
    private boolean inInitialDelay;
    private CoordinatorTimer.Cancellable joinTimer;
    private CoordinatorTimer.Cancellable syncTimer;
    /** The consumer-protocol (KIP-848) state when this group is one; its offsets stay here either way. */
    private ConsumerGroup consumerGroup;
    /** After a downgrade, the members' epochs accepted until the next generation; else null. */
    private DowngradedEpochs downgradedEpochs;

    ClassicGroup(String groupId, long nowMs) {
        this.groupId = groupId;
        this.stateTimestampMs = nowMs;
    }

    String groupId() {
        return groupId;
    }

    /** The KIP-848 state, or null for a classic group. */
    ConsumerGroup consumerGroup() {
        return consumerGroup;
    }

    /** Makes this a consumer-protocol group (it has no classic members), or, with null, a classic one again. */
    void consumerGroup(ConsumerGroup state) {
        this.consumerGroup = state;
        this.protocolType = state == null ? null : ConsumerProtocol.PROTOCOL_TYPE;
    }

    /** Whether {@code memberId} may use {@code generation}: the group's, or its epoch at a downgrade still settling. */
    boolean knowsGeneration(String memberId, int generation) {
        return generation == generationId
                || (downgradedEpochs != null && downgradedEpochs.knows(this, memberId, generation));
    }

    /** Whether the member may commit {@code partitions} at {@code generation} (see {@link DowngradedEpochs}). */
    boolean acceptsCommitAt(String memberId, int generation, Collection<OffsetKey> partitions) {
        return generation == generationId || (downgradedEpochs != null
                && downgradedEpochs.acceptsCommit(this, memberId, generation, partitions));
    }

    void downgradedEpochs(DowngradedEpochs epochs) {
        this.downgradedEpochs = epochs;
    }

    GroupState state() {
        return state;
    }

    boolean is(GroupState candidate) {
        return state == candidate;
    }

    /** Moves to {@code next}; the legal transitions are declared by {@link GroupState#validPrevious()}. */
    void transitionTo(GroupState next, long nowMs) {
        if (!next.validPrevious().contains(state)) {
            throw new IllegalStateException("group " + groupId + " cannot move from " + state + " to " + next);
        }
        state = next;
        stateTimestampMs = nowMs;
    }

    /** Sets the state as loaded from {@code __consumer_offsets}, bypassing the transition rules. */
    void restoreState(GroupState loaded, long timestampMs) {
        state = loaded;
        stateTimestampMs = timestampMs;
    }

    long stateTimestampMs() {
        return stateTimestampMs;
    }

    int generationId() {
        return generationId;
    }

    void generationId(int generation) {
        this.generationId = generation;
    }

    String protocolType() {
        return protocolType;
    }

    void protocolType(String type) {
        this.protocolType = type;
    }

    String protocolName() {
        return protocolName;
    }

    void protocolName(String name) {
        this.protocolName = name;
    }

    String leaderId() {
        return leaderId;
    }

    void leaderId(String memberId) {
        this.leaderId = memberId;
    }

    boolean isLeader(String memberId) {
        return memberId.equals(leaderId);
    }

    // ---- members -------------------------------------------------------------------------------

    boolean hasMember(String memberId) {
        return members.containsKey(memberId);
    }

    GroupMember member(String memberId) {
        return members.get(memberId);
    }

    Collection<GroupMember> members() {
        return members.values();
    }

    int size() {
        return members.size();
    }

    boolean isEmptyOfMembers() {
        return members.isEmpty();
    }

    void add(GroupMember member) {
        members.put(member.memberId(), member);
        if (member.isStatic()) {
            staticMembers.put(member.groupInstanceId(), member.memberId());
        }
        if (leaderId == null) {
            leaderId = member.memberId();
        }
    }

    /** Removes the member; when it led the group, another member (preferring one that has rejoined) leads. */
    GroupMember remove(String memberId) {
        GroupMember removed = members.remove(memberId);
        if (removed == null) {
            return null;
        }
        removed.cancelSessionTimer();
        if (removed.isStatic() && memberId.equals(staticMembers.get(removed.groupInstanceId()))) {
            staticMembers.remove(removed.groupInstanceId());
        }
        if (memberId.equals(leaderId)) {
            leaderId = members.values().stream().filter(GroupMember::isAwaitingJoin).findFirst()
                    .or(() -> members.values().stream().findFirst())
                    .map(GroupMember::memberId).orElse(null);
        }
        return removed;
    }

    /** The member id currently registered for a static instance id, or null. */
    String staticMemberId(String groupInstanceId) {
        return groupInstanceId == null ? null : staticMembers.get(groupInstanceId);
    }

    /**
     * Whether a request naming {@code memberId} and {@code groupInstanceId} comes from a fenced static member:
     * the instance id is registered to a different member id (KIP-345).
     */
    boolean isFencedStaticMember(String memberId, String groupInstanceId) {
        if (groupInstanceId == null) {
            return false;
        }
        String registered = staticMembers.get(groupInstanceId);
        return registered != null && !registered.equals(memberId);
    }

    /** Swaps a static member's id, keeping its place (and leadership); answers the old member's waiting calls. */
    GroupMember replaceStaticMember(GroupMember old, String newMemberId) {
        GroupMember replacement = new GroupMember(newMemberId, old.groupInstanceId(), old.clientId(),
                old.clientHost(), old.rebalanceTimeoutMs(), old.sessionTimeoutMs(), old.protocols());
        replacement.assignment(old.assignment());
        Map<String, GroupMember> reordered = new LinkedHashMap<>();
        for (Map.Entry<String, GroupMember> entry : members.entrySet()) {
            if (entry.getKey().equals(old.memberId())) {
                reordered.put(newMemberId, replacement);
            } else {
                reordered.put(entry.getKey(), entry.getValue());
            }
        }
        members.clear();
        members.putAll(reordered);
        staticMembers.put(old.groupInstanceId(), newMemberId);
        if (old.memberId().equals(leaderId)) {
            leaderId = newMemberId;
        }
        old.cancelSessionTimer();
        return replacement;
    }

    // ---- KIP-394 pending members ----------------------------------------------------------------

    boolean isPending(String memberId) {
        return pendingMembers.containsKey(memberId);
    }

    void addPending(String memberId, CoordinatorTimer.Cancellable expiry) {
        pendingMembers.put(memberId, expiry);
    }

    boolean removePending(String memberId) {
        CoordinatorTimer.Cancellable expiry = pendingMembers.remove(memberId);
        if (expiry != null) {
            expiry.cancel();
            return true;
        }
        return false;
    }

    int pendingCount() {
        return pendingMembers.size();
    }

    // ---- rebalance bookkeeping ----------------------------------------------------------------------

    boolean allMembersJoined() {
        return pendingMembers.isEmpty() && members.values().stream().allMatch(GroupMember::isAwaitingJoin);
    }

    /** The longest rebalance timeout among members: how long a rebalance waits for every member to rejoin. */
    int rebalanceTimeoutMs() {
        return members.values().stream().mapToInt(GroupMember::rebalanceTimeoutMs).max().orElse(0);
    }

    boolean newMemberAdded() {
        return newMemberAdded;
    }

    void newMemberAdded(boolean value) {
        this.newMemberAdded = value;
    }

    /** Whether the first rebalance of an empty group is still waiting out group.initial.rebalance.delay.ms. */
    boolean inInitialDelay() {
        return inInitialDelay;
    }

    void inInitialDelay(boolean value) {
        this.inInitialDelay = value;
    }

    void joinTimer(CoordinatorTimer.Cancellable timer) {
        cancelJoinTimer();
        this.joinTimer = timer;
    }

    void cancelJoinTimer() {
        if (joinTimer != null) {
            joinTimer.cancel();
            joinTimer = null;
        }
    }

    void syncTimer(CoordinatorTimer.Cancellable timer) {
        cancelSyncTimer();
        this.syncTimer = timer;
    }

    void cancelSyncTimer() {
        if (syncTimer != null) {
            syncTimer.cancel();
            syncTimer = null;
        }
    }

    /** Cancels every timer of the group and its members (the group is being dropped or deleted). */
    void cancelAllTimers() {
        cancelJoinTimer();
        cancelSyncTimer();
        members.values().forEach(GroupMember::cancelSessionTimer);
        pendingMembers.values().forEach(CoordinatorTimer.Cancellable::cancel);
        pendingMembers.clear();
    }

    // ---- protocols ----------------------------------------------------------------------------------

    /** Protocols every member supports. */
    Set<String> candidateProtocols() {
        Set<String> candidates = null;
        for (GroupMember member : members.values()) {
            Set<String> names = new HashSet<>();
            member.protocols().forEach(p -> names.add(p.name()));
            if (candidates == null) {
                candidates = names;
            } else {
                candidates.retainAll(names);
            }
        }
        return candidates == null ? Set.of() : candidates;
    }

    /** Whether a member with this protocol type and these protocols could join the group as it is. */
    boolean supportsProtocols(String memberProtocolType, Set<String> memberProtocols) {
        if (members.isEmpty()) {
            return !memberProtocolType.isEmpty() && !memberProtocols.isEmpty();
        }
        if (!memberProtocolType.equals(protocolType)) {
            return false;
        }
        Set<String> candidates = new HashSet<>(candidateProtocols());
        candidates.retainAll(memberProtocols);
        return !candidates.isEmpty();
    }

    /** The protocol all members support that most members prefer (ties go to the first in name order). */
    String selectProtocol() {
        Set<String> candidates = candidateProtocols();
        if (candidates.isEmpty()) {
            throw new IllegalStateException("group " + groupId + " has no protocol all members support");
        }
        Map<String, Integer> votes = new TreeMap<>();
        for (GroupMember member : members.values()) {
            votes.merge(member.vote(candidates), 1, Integer::sum);
        }
        return votes.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    /** The topics the group's consumers subscribe to; empty when it is not a readable consumer group. */
    Optional<Set<String>> subscribedTopics() {
        if (consumerGroup != null) { // the topics the broker resolved for its members (KIP-848)
            Set<String> topics = new HashSet<>();
            consumerGroup.subscribedTopics().values().forEach(topic -> topics.add(topic.name()));
            return Optional.of(topics);
        }
        if (!ConsumerProtocol.PROTOCOL_TYPE.equals(protocolType) || protocolName == null || members.isEmpty()) {
            return Optional.empty();
        }
        Set<String> topics = new HashSet<>();
        for (GroupMember member : members.values()) {
            Optional<Set<String>> subscribed = ConsumerProtocol.subscribedTopics(member.metadata(protocolName));
            if (subscribed.isEmpty()) {
                return Optional.empty();
            }
            topics.addAll(subscribed.get());
        }
        return Optional.of(topics);
    }

    // ---- offsets ------------------------------------------------------------------------------------

    Map<OffsetKey, OffsetAndMetadata> offsets() {
        return offsets;
    }

    void putOffset(OffsetKey partition, OffsetAndMetadata offset) {
        offsets.put(partition, offset);
    }

    /** Commits {@code offset} unless the committed one was written later (then it stays). */
    void putOffsetWrittenAt(OffsetKey partition, OffsetAndMetadata offset, long writePosition) {
        Long current = offsetWritePositions.get(partition);
        if (current == null || current < writePosition || !offsets.containsKey(partition)) {
            offsets.put(partition, offset);
            offsetWritePositions.put(partition, writePosition);
        }
    }

    /** A tombstone for the partition is written: its committed offset and any undecided transactional one go. */
    void removeOffset(OffsetKey partition) {
        offsets.remove(partition);
        offsetWritePositions.remove(partition);
        transactionalOffsets.removePartition(partition);
    }

    /** The position of the next write of this group's records, in log order (replay continues it). */
    long nextWritePosition() {
        return nextWritePosition++;
    }

    /** After a load: later writes come after every replayed one. */
    void writePositionAtLeast(long position) {
        nextWritePosition = Math.max(nextWritePosition, position);
    }

    TransactionalOffsets transactionalOffsets() {
        return transactionalOffsets;
    }

    void addPendingCommit(OffsetKey partition) {
        pendingCommits.merge(partition, 1, Integer::sum);
    }

    void removePendingCommit(OffsetKey partition) {
        pendingCommits.computeIfPresent(partition, (key, count) -> count == 1 ? null : count - 1);
    }

    /** Whether a plain commit of the partition is being written, or a transaction's offset for it is undecided. */
    boolean hasPendingCommit(OffsetKey partition) {
        return pendingCommits.containsKey(partition) || transactionalOffsets.hasPending(partition);
    }

    boolean hasPendingCommits() {
        return !pendingCommits.isEmpty() || !transactionalOffsets.isEmpty();
    }

    @Override
    public String toString() {
        return "ClassicGroup(" + groupId + ", " + state + ", generation " + generationId + ", " + members.size()
                + " members)";
    }
}
