package io.kraft.raft;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;

/**
 * The leader of {@code epoch}: tracks what every voter and observer has acknowledged, the fetches it holds
 * (long poll) and whether a majority of voters fetched within the last check-quorum window.
 */
final class LeaderState implements RoleState {
    private final int epoch;
    private final int nodeId;
    private final long epochStartOffset;
    /** The voters in force, which change with voters records while this node leads (KIP-853). */
    private Set<Integer> voterIds;
    private final Map<Integer, ReplicaProgress> progress = new TreeMap<>();
    /** The leader's log end offset when each member last fetched: reaching it later means it was caught up then. */
    private final Map<Integer, Long> leaderEndOffsetAtLastFetch = new HashMap<>();
    private final Map<Integer, ParkedFetch> parkedFetches = new HashMap<>();
    private final Map<Integer, Long> highWatermarkSent = new HashMap<>();
    private final Set<Integer> fetchedThisWindow = new HashSet<>();
    private final Set<Integer> fetchedThisEpoch = new HashSet<>();
    private long checkQuorumDeadlineTick;
    private long beginQuorumResendTick;
    private boolean readyAnnounced;

    /** A fetch with nothing to return yet, answered when data or a new high watermark arrives or it expires. */
    record ParkedFetch(RaftMessage.FetchRequest request, long expiryTick) {
    }

    LeaderState(int epoch, int nodeId, long epochStartOffset, Set<Integer> voterIds, long checkQuorumDeadlineTick) {
        this.epoch = epoch;
        this.nodeId = nodeId;
        this.epochStartOffset = epochStartOffset;
        this.voterIds = voterIds;
        this.checkQuorumDeadlineTick = checkQuorumDeadlineTick;
        for (int voterId : voterIds) {
            if (voterId != nodeId) {
                progress.put(voterId, new ReplicaProgress(voterId, true, 0, -1, -1));
            }
        }
    }

    @Override
    public Role role() {
        return Role.LEADER;
    }

    @Override
    public int epoch() {
        return epoch;
    }

    @Override
    public OptionalInt leaderId() {
        return OptionalInt.of(nodeId);
    }

    @Override
    public OptionalInt votedId() {
        return OptionalInt.of(nodeId);
    }

    /** Whether the state machine was told that this epoch's earlier records are all committed. */
    boolean readyAnnounced() {
        return readyAnnounced;
    }

    void markReadyAnnounced() {
        readyAnnounced = true;
    }

    /**
     * The voter set changed (a voters record was appended): new voters keep the progress they made as observers, so
     * one that caught up first counts at once; removed voters are tracked as observers from now on.
     */
    void votersChanged(Set<Integer> voters) {
        this.voterIds = voters;
        for (ReplicaProgress p : List.copyOf(progress.values())) {
            progress.put(p.replicaId(), new ReplicaProgress(p.replicaId(), voters.contains(p.replicaId()),
                    p.endOffset(), p.lastFetchTick(), p.lastCaughtUpTick()));
        }
        for (int voterId : voters) {
            if (voterId != nodeId) {
                progress.putIfAbsent(voterId, new ReplicaProgress(voterId, true, 0, -1, -1));
            }
        }
        fetchedThisWindow.retainAll(voters);
    }

    /** What {@code replicaId} acknowledged and when, if it fetched in this epoch (or is a voter). */
    java.util.Optional<ReplicaProgress> progressOf(int replicaId) {
        return java.util.Optional.ofNullable(progress.get(replicaId));
    }

    /** Offset of this epoch's leader-change record: nothing below it may be committed by counting replicas. */
    long epochStartOffset() {
        return epochStartOffset;
    }

    /**
     * A fetch acknowledging everything below {@code fetchOffset}, while this leader's log ends at
     * {@code leaderEndOffset}. The member is caught up now if it has the leader's whole log, and was caught up at
     * its previous fetch if it now has everything the leader had then.
     */
    void recordFetch(int replicaId, long fetchOffset, long nowTick, long leaderEndOffset) {
        ReplicaProgress old = progress.get(replicaId);
        long caughtUpTick = old == null ? -1 : old.lastCaughtUpTick();
        Long endAtLastFetch = leaderEndOffsetAtLastFetch.put(replicaId, leaderEndOffset);
        if (fetchOffset >= leaderEndOffset) {
            caughtUpTick = nowTick;
        } else if (old != null && endAtLastFetch != null && fetchOffset >= endAtLastFetch) {
            caughtUpTick = Math.max(caughtUpTick, old.lastFetchTick());
        }
        record(replicaId, fetchOffset, nowTick, caughtUpTick);
    }

    /** Records contact without an acknowledged position (e.g. a fetch that diverged). */
    /** Notes the high watermark a fetch response carried to {@code replicaId}. */
    void recordHighWatermarkSent(int replicaId, long highWatermark) {
        highWatermarkSent.merge(replicaId, highWatermark, Math::max);
    }

    /**
     * Whether {@code replicaId} has been sent {@code highWatermark} already. A fetcher that has not may not
     * be parked: it would learn of the commit only when the long poll expires (observers apply committed
     * metadata, so that wait delayed every broker's view of a fencing by a whole fetch timeout).
     */
    boolean hasSeenHighWatermark(int replicaId, long highWatermark) {
        return highWatermarkSent.getOrDefault(replicaId, -1L) >= highWatermark;
    }

    void recordContact(int replicaId, long nowTick) {
        ReplicaProgress old = progress.get(replicaId);
        record(replicaId, old == null ? 0 : old.endOffset(), nowTick, old == null ? -1 : old.lastCaughtUpTick());
    }

    private void record(int replicaId, long endOffset, long nowTick, long caughtUpTick) {
        boolean voter = voterIds.contains(replicaId);
        if (!voter && !progress.containsKey(replicaId)
                && progress.size() - (voterIds.size() - 1) >= RaftConfig.MAX_TRACKED_OBSERVERS) {
            forgetLongestSilentObserver();
        }
        progress.put(replicaId, new ReplicaProgress(replicaId, voter, endOffset, nowTick, caughtUpTick));
        if (voter) {
            fetchedThisWindow.add(replicaId);
            fetchedThisEpoch.add(replicaId);
        }
    }

    private void forgetLongestSilentObserver() {
        ReplicaProgress silent = null;
        for (ReplicaProgress p : progress.values()) {
            if (!p.voter() && (silent == null || p.lastFetchTick() < silent.lastFetchTick())) {
                silent = p;
            }
        }
        if (silent != null) {
            int id = silent.replicaId();
            progress.remove(id);
            leaderEndOffsetAtLastFetch.remove(id);
            highWatermarkSent.remove(id);
            parkedFetches.remove(id);
        }
    }

    /**
     * The largest offset a majority of voters (this leader counting its durable end) has reached, or -1 when it
     * does not lie inside this epoch, where Raft forbids committing by counting.
     */
    long majorityEndOffset(long leaderFlushedEndOffset, int majority) {
        List<Long> ends = new ArrayList<>();
        if (voterIds.contains(nodeId)) {
            ends.add(leaderFlushedEndOffset); // a leader removed from the set no longer counts (KIP-853)
        }
        for (ReplicaProgress p : progress.values()) {
            if (p.voter()) {
                ends.add(p.endOffset());
            }
        }
        ends.sort((a, b) -> Long.compare(b, a));
        if (ends.size() < majority) {
            return -1;
        }
        long candidate = ends.get(majority - 1);
        return candidate > epochStartOffset ? candidate : -1;
    }

    /** Ends a check-quorum window; true if a majority of voters (counting this leader) fetched during it. */
    boolean checkQuorum(long nowTick, int majority, int fetchTimeoutTicks) {
        if (nowTick < checkQuorumDeadlineTick) {
            return true;
        }
        boolean ok = fetchedThisWindow.size() + (voterIds.contains(nodeId) ? 1 : 0) >= majority;
        fetchedThisWindow.clear();
        // 1.5 fetch timeouts, as KRaft does: a healthy but briefly slow follower must not depose the leader.
        checkQuorumDeadlineTick = nowTick + fetchTimeoutTicks + fetchTimeoutTicks / 2;
        return ok;
    }

    /**
     * Voters that have not fetched within {@code silenceTicks} (or at all in this epoch), when a resend is due. A
     * silent voter may not know the epoch, or may be stuck in a newer one that its answer will reveal.
     */
    List<Integer> votersToAnnounceTo(long nowTick, int resendIntervalTicks, int silenceTicks) {
        if (nowTick < beginQuorumResendTick) {
            return List.of();
        }
        beginQuorumResendTick = nowTick + resendIntervalTicks;
        List<Integer> silent = new ArrayList<>();
        for (int voterId : voterIds) {
            if (voterId == nodeId) {
                continue;
            }
            ReplicaProgress p = progress.get(voterId);
            if (!fetchedThisEpoch.contains(voterId) || p == null || nowTick - p.lastFetchTick() >= silenceTicks) {
                silent.add(voterId);
            }
        }
        return silent;
    }

    void park(RaftMessage.FetchRequest request, long expiryTick) {
        parkedFetches.put(request.source(), new ParkedFetch(request, expiryTick));
    }

    /** Removes and returns every parked fetch. */
    List<ParkedFetch> unparkAll() {
        List<ParkedFetch> all = new ArrayList<>(parkedFetches.values());
        parkedFetches.clear();
        all.sort((a, b) -> Integer.compare(a.request().source(), b.request().source()));
        return all;
    }

    /** Removes and returns the parked fetches whose wait is over. */
    List<ParkedFetch> unparkExpired(long nowTick) {
        List<ParkedFetch> expired = new ArrayList<>();
        parkedFetches.values().removeIf(p -> {
            if (p.expiryTick() <= nowTick) {
                expired.add(p);
                return true;
            }
            return false;
        });
        expired.sort((a, b) -> Integer.compare(a.request().source(), b.request().source()));
        return expired;
    }

    /** Other voters ordered by how far they have caught up, best first: who should succeed this leader. */
    List<Integer> preferredSuccessors() {
        List<ReplicaProgress> voters = new ArrayList<>();
        for (ReplicaProgress p : progress.values()) {
            if (p.voter()) {
                voters.add(p);
            }
        }
        voters.sort((a, b) -> a.endOffset() != b.endOffset()
                ? Long.compare(b.endOffset(), a.endOffset()) : Integer.compare(a.replicaId(), b.replicaId()));
        return voters.stream().map(ReplicaProgress::replicaId).toList();
    }

    List<ReplicaProgress> progress() {
        return List.copyOf(progress.values());
    }

    @Override
    public String toString() {
        return "Leader(epoch=" + epoch + ", epochStart=" + epochStartOffset + ")";
    }
}
