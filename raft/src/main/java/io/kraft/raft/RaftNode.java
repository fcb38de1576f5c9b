package io.kraft.raft;

import io.kraft.raft.RaftMessage.BeginQuorumEpoch;
import io.kraft.raft.RaftMessage.BeginQuorumEpochResponse;
import io.kraft.raft.RaftMessage.EndQuorumEpoch;
import io.kraft.raft.RaftMessage.FetchError;
import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.FetchResponse;
import io.kraft.raft.RaftMessage.FetchSnapshotRequest;
import io.kraft.raft.RaftMessage.FetchSnapshotResponse;
import io.kraft.raft.RaftMessage.VoteRequest;
import io.kraft.raft.RaftMessage.VoteResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.random.RandomGenerator;

/**
 * One member of a Raft quorum as a deterministic state machine. Events come in through {@link #tick()},
 * {@link #handle(RaftMessage)}, {@link #handleLogFlushed(long)}, {@link #append(List)}, {@link #resign()},
 * {@link #snapshotCreated(SnapshotId)} and {@link #deleteLogPrefix(SnapshotId)};
 * the work they cause comes out of {@link #ready()}. It owns no thread, socket or clock, and draws randomness
 * only from the generator it is given, so a seeded driver replays it exactly. Not thread-safe: one driver thread.
 */
public final class RaftNode {
    private final RaftConfig config;
    private final RaftLog log;
    private final SnapshotStore snapshots;
    private final RandomGenerator random;
    private final int nodeId;
    private final List<Integer> otherVoters;
    private final PendingAppends pendingAppends = new PendingAppends();

    private RoleState state;
    private long nowTick;
    private long flushedEndOffset;
    private long highWatermark;
    private long nextOffsetToDeliver;

    private QuorumState persistedState;
    private LeaderAndEpoch announcedLeader;
    private final List<RaftMessage> outbox = new ArrayList<>();
    private final List<CommittedBatch> committedOut = new ArrayList<>();
    private boolean flushNeeded;
    private LeaderAndEpoch leaderChangeOut;
    private SnapshotId loadSnapshotOut;
    private LeaderReady leaderReadyOut;
    /** The newest snapshot the state machine made or this node installed: what a lagging fetcher is sent. */
    private SnapshotId latestSnapshot;
    /** The voter an observer last failed to reach while looking for the leader (its next probe avoids it), or -1. */
    private int unreachableVoter = -1;
    /** The snapshot a follower or observer is fetching from its leader, or null. */
    private SnapshotId fetchingSnapshot;
    /** Where the stream answering the outstanding snapshot request ends (unless the snapshot ends first). */
    private long snapshotRequestEnd;
    private long rejectedSnapshotChunks;
    private String lastSnapshotError;

    /**
     * Restores a node from what survived on disk: the log (everything in it counts as durable) and the last
     * persisted quorum state. A node that was leader before it stopped comes back as a follower of that epoch
     * without a leader, because its leader bookkeeping is gone.
     */
    public RaftNode(RaftConfig config, RaftLog log, QuorumState persisted, RandomGenerator random) {
        this(config, log, new InMemorySnapshotStore(), persisted, random);
    }

    /**
     * Restores a node as above, starting from the latest stored snapshot: the state machine loads it first (see
     * {@link Ready#loadSnapshot()}) and then receives the committed records after it.
     */
    public RaftNode(RaftConfig config, RaftLog log, SnapshotStore snapshots, QuorumState persisted,
                    RandomGenerator random) {
        this.config = Objects.requireNonNull(config, "config");
        this.log = Objects.requireNonNull(log, "log");
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
        restoreSnapshot();
        this.random = Objects.requireNonNull(random, "random");
        this.nodeId = config.nodeId();
        this.otherVoters = config.voterIds().stream().filter(id -> id != nodeId).sorted().toList();
        if (log.lastEpoch() > persisted.epoch()) {
            throw new IllegalStateException("persisted quorum epoch " + persisted.epoch()
                    + " is behind the log's last epoch " + log.lastEpoch() + ": the quorum state is stale or lost");
        }
        this.flushedEndOffset = log.endOffset();
        this.persistedState = persisted;
        OptionalInt leader = persisted.leaderId().isPresent() && persisted.leaderId().getAsInt() == nodeId
                ? OptionalInt.empty() : persisted.leaderId();
        if (config.isVoter()) {
            this.state = newFollower(persisted.epoch(), leader, persisted.votedId(), randomElectionTimeout());
        } else {
            this.state = new ObserverState(persisted.epoch(), leader, nowTick + config.fetchTimeoutTicks());
        }
        this.announcedLeader = new LeaderAndEpoch(state.leaderId(), state.epoch());
        this.leaderChangeOut = announcedLeader;
    }

    /**
     * Reconciles the log with the latest snapshot after a restart. A crash between installing a snapshot and
     * resetting the log leaves a log that does not continue the snapshot; it is reset now.
     */
    private void restoreSnapshot() {
        Optional<SnapshotId> latest = snapshots.latest();
        if (latest.isEmpty()) {
            if (log.startOffset() > 0) {
                throw new IllegalStateException("the raft log starts at " + log.startOffset()
                        + " but no snapshot covers the offsets below it");
            }
            return;
        }
        SnapshotId snapshot = latest.get();
        if (log.startOffset() > snapshot.endOffset()) {
            throw new IllegalStateException("the raft log starts at " + log.startOffset()
                    + " past the end of the latest snapshot " + snapshot);
        }
        long end = snapshot.endOffset();
        boolean continues = log.endOffset() >= end
                && (end == log.startOffset() ? log.endOffsetForEpoch(snapshot.epoch()).epoch() == snapshot.epoch()
                : log.epochOf(end - 1) == snapshot.epoch());
        if (!continues) {
            log.deletePrefix(snapshot);
        }
        latestSnapshot = snapshot;
        highWatermark = end;
        nextOffsetToDeliver = end;
        loadSnapshotOut = snapshot;
    }

    // ---------------------------------------------------------------- events

    /** Advances the logical clock by one tick and fires whatever timer ran out. */
    public void tick() {
        nowTick++;
        if (state instanceof FollowerState f) {
            if (f.hasLeader() ? f.fetch().contactExpired(nowTick) : f.electionTimedOut(nowTick)) {
                becomeProspective();
            } else {
                maybeSendFetch();
            }
        } else if (state instanceof ObserverState o) {
            if (o.leaderId().isPresent() && o.fetch().contactExpired(nowTick)) {
                becomeObserver(o.epoch(), OptionalInt.empty());
            }
            maybeSendFetch();
        } else if (state instanceof ProspectiveState p) {
            if (p.roundExpired(nowTick) || nowTick >= p.retryTick()) {
                becomeProspective();
            }
        } else if (state instanceof CandidateState c) {
            if (nowTick >= c.deadlineTick()) {
                becomeProspective();
            }
        } else if (state instanceof LeaderState l) {
            if (!l.checkQuorum(nowTick, config.majority(), config.fetchTimeoutTicks())) {
                resignLeadership(l);
                return;
            }
            for (LeaderState.ParkedFetch parked : l.unparkExpired(nowTick)) {
                sendFetchResponse(l, parked.request());
            }
            for (int voterId : l.votersToAnnounceTo(nowTick, config.requestTimeoutTicks(), config.fetchTimeoutTicks())) {
                send(new BeginQuorumEpoch(nodeId, voterId, l.epoch()));
            }
        }
    }

    /** Handles one message addressed to this node. */
    public void handle(RaftMessage message) {
        if (message.destination() != nodeId) {
            throw new IllegalArgumentException("message for node " + message.destination()
                    + " delivered to node " + nodeId + ": " + message);
        }
        // Only voters can have moved the epoch; anything else claiming a newer one is ignored, not believed.
        if (message.epoch() > state.epoch() && observesNewerEpoch(message)
                && config.voterIds().contains(message.source())) {
            OptionalInt leader = leaderNamedBy(message);
            if (config.isVoter()) {
                becomeFollower(message.epoch(), leader, OptionalInt.empty(), randomElectionTimeout());
            } else {
                becomeObserver(message.epoch(), leader);
            }
        }
        if (message instanceof VoteRequest m) {
            handleVoteRequest(m);
        } else if (message instanceof VoteResponse m) {
            handleVoteResponse(m);
        } else if (message instanceof BeginQuorumEpoch m) {
            handleBeginQuorumEpoch(m);
        } else if (message instanceof BeginQuorumEpochResponse) {
            return; // all it can teach is a newer epoch, handled above
        } else if (message instanceof EndQuorumEpoch m) {
            handleEndQuorumEpoch(m);
        } else if (message instanceof FetchRequest m) {
            handleFetchRequest(m);
        } else if (message instanceof FetchResponse m) {
            handleFetchResponse(m);
        } else if (message instanceof FetchSnapshotRequest m) {
            handleFetchSnapshotRequest(m);
        } else if (message instanceof FetchSnapshotResponse m) {
            handleFetchSnapshotResponse(m);
        }
    }

    /**
     * The driver flushed the log; {@code flushedEndOffset} is the log end offset the flush covered. Only now may a
     * follower acknowledge these entries (by fetching past them) and the leader count its own copy.
     */
    public void handleLogFlushed(long flushedEndOffset) {
        long durable = Math.min(flushedEndOffset, log.endOffset());
        if (durable > this.flushedEndOffset) {
            this.flushedEndOffset = durable;
        }
        if (state instanceof LeaderState l) {
            if (maybeAdvanceLeaderHighWatermark(l)) {
                answerParkedFetches(l);
            }
        } else {
            maybeSendFetch();
        }
    }

    /**
     * On the leader, appends records as one batch of the current epoch. The future completes with the offset of
     * the batch's last record once it is committed, or fails with {@link NotLeaderException} if this node stops
     * being leader first (the records may still be committed by a later leader).
     */
    public CompletableFuture<Long> append(List<byte[]> records) {
        if (records.isEmpty()) {
            throw new IllegalArgumentException("append needs at least one record");
        }
        if (!(state instanceof LeaderState l)) {
            return CompletableFuture.failedFuture(new NotLeaderException(nodeId, state.epoch(), state.leaderId()));
        }
        long offset = log.endOffset();
        List<LogEntry> entries = new ArrayList<>(records.size());
        for (byte[] record : records) {
            entries.add(LogEntry.data(offset++, l.epoch(), record.clone()));
        }
        log.append(entries);
        flushNeeded = true;
        CompletableFuture<Long> future = new CompletableFuture<>();
        pendingAppends.add(offset - 1, future);
        answerParkedFetches(l);
        return future;
    }

    /**
     * The state machine stored snapshot {@code id} in the snapshot store; it covers records it has applied, so at
     * most what this node knows to be committed. It becomes what lagging fetchers are sent.
     */
    public void snapshotCreated(SnapshotId id) {
        if (id.endOffset() > nextOffsetToDeliver) {
            throw new IllegalArgumentException("snapshot " + id + " ends past the records handed to the state machine ("
                    + nextOffsetToDeliver + ")");
        }
        if (!snapshots.contains(id)) {
            throw new IllegalArgumentException("snapshot " + id + " is not in the snapshot store");
        }
        if (id.endOffset() > log.startOffset() && log.epochOf(id.endOffset() - 1) != id.epoch()) {
            throw new IllegalArgumentException("snapshot " + id + " does not match the log: the record at "
                    + (id.endOffset() - 1) + " has epoch " + log.epochOf(id.endOffset() - 1));
        }
        if (latestSnapshot == null || id.compareTo(latestSnapshot) > 0) {
            latestSnapshot = id;
        }
    }

    /**
     * Deletes the log prefix snapshot {@code id} covers (the driver decides when, from the retention settings). A
     * member fetching below the new log start is then sent the snapshot.
     */
    public void deleteLogPrefix(SnapshotId id) {
        if (latestSnapshot == null || id.compareTo(latestSnapshot) > 0 || !snapshots.contains(id)) {
            throw new IllegalArgumentException("snapshot " + id + " was not recorded with snapshotCreated");
        }
        if (id.endOffset() > log.startOffset()) {
            log.deletePrefix(id);
        }
    }

    /**
     * The driver's transport could not reach node {@code peerId} at all (connection refused or unavailable, as when
     * its process died), unlike a slow answer. A prospective or candidate counts it as refusing its vote. An observer
     * looking for the leader asks another voter soon instead of waiting out the request timeout. If it is our leader we give up on it after a short grace instead of
     * the full fetch timeout, then run a pre-vote; a leader that is alive keeps
     * its followers, since voters that still hear from it refuse the pre-vote. The grace is a fifth of the election
     * timeout plus a random part of up to half of it.
     */
    public void peerUnreachable(int peerId) {
        if (config.voterIds().contains(peerId) && peerId != nodeId) {
            // A voter that cannot be reached cannot grant this round. Counting it as a refusal ends a round that can
            // no longer be won (two candidates that split the vote while the third voter is down) after the
            // election backoff instead of the whole election timeout; a later grant from it still counts.
            if (state instanceof ProspectiveState p) {
                p.tally().record(peerId, false);
                if (p.tally().lost()) {
                    p.retryAt(Math.min(p.retryTick(), nowTick + 1 + random.nextInt(config.electionBackoffMaxTicks())));
                }
                return;
            }
            if (state instanceof CandidateState c) {
                c.tally().record(peerId, false);
                if (c.tally().lost()) {
                    c.backOffUntil(nowTick + 1 + random.nextInt(config.electionBackoffMaxTicks()));
                }
                return;
            }
        }
        if (state instanceof ObserverState o && o.leaderId().isEmpty()) {
            // A discovery fetch to a voter that is down: ask another one shortly instead of after the request timeout.
            unreachableVoter = peerId;
            o.fetch().retryBy(nowTick + discoveryRetryTicks());
            return;
        }
        if (!state.leaderId().equals(OptionalInt.of(peerId))) {
            return;
        }
        // Randomized like an election timeout, so the followers that all lost the leader do not split the vote.
        long graceTicks = Math.max(1, config.electionTimeoutTicks() / 5)
                + random.nextInt(Math.max(1, config.electionTimeoutTicks() / 2));
        if (state instanceof FollowerState f) {
            f.fetch().expireContactBy(nowTick + graceTicks);
        } else if (state instanceof ObserverState o) {
            o.fetch().expireContactBy(nowTick + graceTicks);
        }
    }

    /** A leader steps down gracefully, telling voters to elect a successor at once; otherwise a no-op. */
    public void resign() {
        if (state instanceof LeaderState l) {
            resignLeadership(l);
        }
    }

    // ---------------------------------------------------------------- actions out

    /** Whether {@link #ready()} has anything to hand out. */
    public boolean hasReady() {
        return !outbox.isEmpty() || flushNeeded || !committedOut.isEmpty() || leaderChangeOut != null
                || loadSnapshotOut != null || leaderReadyOut != null || !state.quorumState().equals(persistedState);
    }

    /** Hands out the accumulated work and forgets it; see {@link Ready} for the order the driver must keep. */
    public Ready ready() {
        Optional<QuorumState> toPersist = Optional.empty();
        if (!state.quorumState().equals(persistedState)) {
            persistedState = state.quorumState();
            toPersist = Optional.of(persistedState);
        }
        Ready ready = new Ready(toPersist, outbox, flushNeeded, committedOut, Optional.ofNullable(leaderChangeOut),
                Optional.ofNullable(loadSnapshotOut), Optional.ofNullable(leaderReadyOut));
        outbox.clear();
        committedOut.clear();
        flushNeeded = false;
        leaderChangeOut = null;
        loadSnapshotOut = null;
        leaderReadyOut = null;
        return ready;
    }

    // ---------------------------------------------------------------- introspection

    public int nodeId() {
        return nodeId;
    }

    public Role role() {
        return state.role();
    }

    public int epoch() {
        return state.epoch();
    }

    public OptionalInt leaderId() {
        return state.leaderId();
    }

    /** Offsets below this are committed (and known to be so by this node). */
    public long highWatermark() {
        return highWatermark;
    }

    /** The log end offset this node knows to be durable. */
    public long flushedEndOffset() {
        return flushedEndOffset;
    }

    public long currentTick() {
        return nowTick;
    }

    /** The first offset in this node's log; below it only the snapshot remains. */
    public long logStartOffset() {
        return log.startOffset();
    }

    /** The newest snapshot this node made or installed. */
    public Optional<SnapshotId> latestSnapshot() {
        return Optional.ofNullable(latestSnapshot);
    }

    /** How many received snapshot chunks (or whole snapshots) failed their checks and were fetched again. */
    public long rejectedSnapshotChunks() {
        return rejectedSnapshotChunks;
    }

    /** Why the last rejected snapshot chunk was rejected, if any was. */
    public Optional<String> lastSnapshotError() {
        return Optional.ofNullable(lastSnapshotError);
    }

    /** On the leader, what every voter and observer has acknowledged; empty on other nodes. */
    public List<ReplicaProgress> replicaProgress() {
        return state instanceof LeaderState l ? l.progress() : List.of();
    }

    @Override
    public String toString() {
        return "RaftNode(" + nodeId + ", " + state + ", hw=" + highWatermark + ", end=" + log.endOffset() + ")";
    }

    // ---------------------------------------------------------------- transitions (all go through transitionTo)

    private void becomeFollower(int epoch, OptionalInt leaderId, OptionalInt votedId, int electionTimeoutTicks) {
        transitionTo(newFollower(epoch, leaderId, votedId, electionTimeoutTicks));
        maybeSendFetch();
    }

    private FollowerState newFollower(int epoch, OptionalInt leaderId, OptionalInt votedId, int electionTimeoutTicks) {
        return new FollowerState(epoch, leaderId, votedId, nowTick + electionTimeoutTicks,
                nowTick + config.fetchTimeoutTicks());
    }

    private void becomeObserver(int epoch, OptionalInt leaderId) {
        transitionTo(new ObserverState(epoch, leaderId, nowTick + config.fetchTimeoutTicks()));
        maybeSendFetch();
    }

    /** Starts a pre-vote round (KIP-996) for the next epoch without touching the persisted epoch or vote. */
    private void becomeProspective() {
        VoteTally tally = new VoteTally(config.voterIds().size(), config.majority());
        tally.record(nodeId, true);
        ProspectiveState p = new ProspectiveState(state.epoch(), state.votedId(), tally,
                nowTick + randomElectionTimeout(), Long.MAX_VALUE);
        transitionTo(p);
        if (tally.won()) {
            becomeCandidate();
            return;
        }
        for (int voterId : otherVoters) {
            send(new VoteRequest(nodeId, voterId, p.candidateEpoch(), log.endOffset(), log.lastEpoch(), true));
        }
    }

    private void becomeCandidate() {
        VoteTally tally = new VoteTally(config.voterIds().size(), config.majority());
        tally.record(nodeId, true);
        CandidateState c = new CandidateState(state.epoch() + 1, nodeId, tally, nowTick + randomElectionTimeout());
        transitionTo(c);
        if (tally.won()) {
            becomeLeader();
            return;
        }
        for (int voterId : otherVoters) {
            send(new VoteRequest(nodeId, voterId, c.epoch(), log.endOffset(), log.lastEpoch(), false));
        }
    }

    /** Opens the epoch with a leader-change record: committing it commits everything before it (Raft §5.4.2). */
    private void becomeLeader() {
        long epochStartOffset = log.endOffset();
        LeaderState l = new LeaderState(state.epoch(), nodeId, epochStartOffset, config.voterIds(),
                nowTick + config.fetchTimeoutTicks() + config.fetchTimeoutTicks() / 2);
        transitionTo(l);
        log.append(List.of(LogEntry.leaderChange(epochStartOffset, l.epoch(), nodeId)));
        flushNeeded = true;
        for (int voterId : l.votersToAnnounceTo(nowTick, config.requestTimeoutTicks(), config.fetchTimeoutTicks())) {
            send(new BeginQuorumEpoch(nodeId, voterId, l.epoch()));
        }
    }

    private void resignLeadership(LeaderState l) {
        List<Integer> successors = l.preferredSuccessors();
        for (int voterId : otherVoters) {
            send(new EndQuorumEpoch(nodeId, voterId, l.epoch(), successors));
        }
        for (LeaderState.ParkedFetch parked : l.unparkAll()) {
            send(fetchError(parked.request(), FetchError.NOT_LEADER, OptionalInt.empty()));
        }
        becomeFollower(l.epoch(), OptionalInt.empty(), l.votedId(), randomElectionTimeout());
    }

    /** The single gate every role change passes: legal transition, epochs never go back, one leader and vote per epoch. */
    private void transitionTo(RoleState next) {
        RoleState previous = state;
        fetchingSnapshot = null; // a new leader says itself which snapshot it wants fetched; partial data stays
        if (!previous.role().canTransitionTo(next.role())) {
            throw new IllegalStateException("node " + nodeId + ": illegal transition " + previous + " -> " + next);
        }
        if (next.epoch() < previous.epoch()) {
            throw new IllegalStateException("node " + nodeId + ": epoch would go back " + previous + " -> " + next);
        }
        if (next.epoch() == previous.epoch()) {
            if (previous.leaderId().isPresent() && next.leaderId().isPresent()
                    && previous.leaderId().getAsInt() != next.leaderId().getAsInt()) {
                throw new IllegalStateException("node " + nodeId + ": two leaders in one epoch " + previous
                        + " -> " + next);
            }
            if (previous.votedId().isPresent() && !previous.votedId().equals(next.votedId())) {
                throw new IllegalStateException("node " + nodeId + ": vote changed within an epoch " + previous
                        + " -> " + next);
            }
        }
        if (previous instanceof LeaderState && !(next instanceof LeaderState)) {
            pendingAppends.failAll(new NotLeaderException(nodeId, previous.epoch(), next.leaderId()));
        }
        state = next;
        LeaderAndEpoch leaderAndEpoch = new LeaderAndEpoch(next.leaderId(), next.epoch());
        if (!leaderAndEpoch.equals(announcedLeader)) {
            announcedLeader = leaderAndEpoch;
            leaderChangeOut = leaderAndEpoch;
        }
    }

    // ---------------------------------------------------------------- votes

    private void handleVoteRequest(VoteRequest request) {
        boolean granted = false;
        if (config.isVoter() && config.voterIds().contains(request.source()) && request.source() != nodeId) {
            boolean upToDate = new OffsetAndEpoch(request.lastEndOffset(), request.lastEpoch())
                    .compareTo(log.lastOffsetAndEpoch()) >= 0;
            if (request.preVote()) {
                granted = request.epoch() > state.epoch() && upToDate && !hasLiveLeader();
            } else if (request.epoch() == state.epoch() && state instanceof FollowerState f
                    && f.canGrantVote(request.source()) && upToDate) {
                granted = true;
                if (f.votedId().isEmpty()) {
                    becomeFollower(f.epoch(), OptionalInt.empty(), OptionalInt.of(request.source()),
                            randomElectionTimeout());
                }
            }
        }
        // Name a leader only if we hear from it ourselves: passing on hearsay can keep voters loyal to a dead one.
        int liveLeader = hasLiveLeader() ? leaderOrNone() : RaftMessage.NO_LEADER;
        send(new VoteResponse(nodeId, request.source(), state.epoch(), liveLeader, granted, request.preVote(),
                request.epoch()));
    }

    /** A voter that hears from its leader (or is the leader) refuses pre-votes: the quorum is healthy (KIP-996). */
    private boolean hasLiveLeader() {
        return state instanceof LeaderState || (state instanceof FollowerState f && f.hasLiveLeader());
    }

    private void handleVoteResponse(VoteResponse response) {
        if (!config.voterIds().contains(response.source())) {
            return;
        }
        if (!response.granted() && response.epoch() == state.epoch() && response.leaderId() != RaftMessage.NO_LEADER
                && response.leaderId() != nodeId && (state instanceof ProspectiveState || state instanceof CandidateState)) {
            becomeFollower(state.epoch(), OptionalInt.of(response.leaderId()), state.votedId(),
                    randomElectionTimeout());
            return;
        }
        if (state instanceof ProspectiveState p && response.preVote()
                && response.candidateEpoch() == p.candidateEpoch()) {
            p.tally().record(response.source(), response.granted());
            if (p.tally().won()) {
                becomeCandidate();
            } else if (p.tally().lost()) {
                p.retryAt(nowTick + 1 + random.nextInt(config.electionBackoffMaxTicks()));
            }
        } else if (state instanceof CandidateState c && !response.preVote()
                && response.candidateEpoch() == c.epoch() && response.epoch() == c.epoch()) {
            c.tally().record(response.source(), response.granted());
            if (c.tally().won()) {
                becomeLeader();
            } else if (c.tally().lost()) {
                c.backOffUntil(nowTick + 1 + random.nextInt(config.electionBackoffMaxTicks()));
            }
        }
    }

    // ---------------------------------------------------------------- leader announcements

    private void handleBeginQuorumEpoch(BeginQuorumEpoch message) {
        if (message.epoch() == state.epoch() && state.leaderId().isEmpty()
                && config.voterIds().contains(message.source())) {
            if (config.isVoter()) {
                becomeFollower(state.epoch(), OptionalInt.of(message.source()), state.votedId(),
                        randomElectionTimeout());
            } else {
                becomeObserver(state.epoch(), OptionalInt.of(message.source()));
            }
        }
        if (message.epoch() == state.epoch() && state instanceof FollowerState f
                && f.leaderId().equals(OptionalInt.of(message.source()))) {
            f.fetch().contacted(nowTick + config.fetchTimeoutTicks()); // the leader spoke to us directly
        }
        send(new BeginQuorumEpochResponse(nodeId, message.source(), state.epoch(), leaderOrNone()));
    }

    private void handleEndQuorumEpoch(EndQuorumEpoch message) {
        boolean fromOurLeader = state.leaderId().equals(OptionalInt.of(message.source()));
        // The resigning leader's NOT_LEADER fetch answers may overtake this message; honour it then as well.
        boolean leaderAlreadyGone = state.leaderId().isEmpty() && config.voterIds().contains(message.source());
        if (message.epoch() != state.epoch() || !(fromOurLeader || leaderAlreadyGone)) {
            return;
        }
        if (state instanceof FollowerState f) {
            int delayTicks = successorDelayTicks(message.preferredSuccessors());
            if (fromOurLeader || nowTick + delayTicks < f.electionDeadlineTick()) {
                becomeFollower(f.epoch(), OptionalInt.empty(), f.votedId(), delayTicks);
            }
        } else if (state instanceof ObserverState o && fromOurLeader) {
            becomeObserver(o.epoch(), OptionalInt.empty());
        }
    }

    /**
     * The best-placed successor stands at once (next tick): the others wait at least one step each, so
     * they cannot split its vote, plus jitter among themselves. A successor that cannot win (not caught
     * up after all) costs one step before the next one stands.
     */
    private int successorDelayTicks(List<Integer> preferredSuccessors) {
        int position = preferredSuccessors.indexOf(nodeId);
        if (position < 0) {
            return randomElectionTimeout();
        }
        if (position == 0) {
            return 1;
        }
        int stepTicks = Math.max(1, config.electionBackoffMaxTicks() / Math.max(1, config.voterIds().size()));
        return 1 + position * stepTicks + random.nextInt(stepTicks);
    }

    // ---------------------------------------------------------------- fetch: leader side

    private void handleFetchRequest(FetchRequest request) {
        if (!(state instanceof LeaderState l)) {
            FetchError error = request.epoch() < state.epoch() ? FetchError.FENCED_LEADER_EPOCH : FetchError.NOT_LEADER;
            send(fetchError(request, error, state.leaderId()));
            return;
        }
        if (request.epoch() != l.epoch()) {
            FetchError error = request.epoch() < l.epoch()
                    ? FetchError.FENCED_LEADER_EPOCH : FetchError.UNKNOWN_LEADER_EPOCH;
            send(fetchError(request, error, l.leaderId()));
            return;
        }
        if (request.source() == nodeId || request.fetchOffset() < 0) {
            return;
        }
        if (request.fetchOffset() < log.startOffset()) {
            sendSnapshotNeeded(l, request);
            return;
        }
        if (request.fetchOffset() > 0 || request.lastFetchedEpoch() > 0) {
            OffsetAndEpoch end = log.endOffsetForEpoch(request.lastFetchedEpoch());
            if (end.epoch() != request.lastFetchedEpoch() || request.fetchOffset() > end.offset()) {
                if (end.offset() < log.startOffset()) {
                    sendSnapshotNeeded(l, request); // where the logs part is below our start: only a snapshot helps
                    return;
                }
                l.recordContact(request.source(), nowTick);
                send(new FetchResponse(nodeId, request.source(), l.epoch(), nodeId, FetchError.NONE,
                        request.fetchOffset(), request.lastFetchedEpoch(), highWatermark, end.epoch(), end.offset(),
                        List.of()));
                return;
            }
        }
        l.recordFetch(request.source(), request.fetchOffset(), nowTick, log.endOffset());
        boolean highWatermarkMoved = maybeAdvanceLeaderHighWatermark(l);
        if (request.fetchOffset() >= log.endOffset() && !highWatermarkMoved
                && l.hasSeenHighWatermark(request.source(), highWatermark)) {
            l.park(request, nowTick + config.fetchMaxWaitTicks());
        } else {
            sendFetchResponse(l, request);
        }
        if (highWatermarkMoved) {
            answerParkedFetches(l);
        }
    }

    /** The fetcher is below our log start (as KRaft answers): it must fetch our latest snapshot first. */
    private void sendSnapshotNeeded(LeaderState l, FetchRequest request) {
        if (latestSnapshot == null || latestSnapshot.endOffset() < log.startOffset()) {
            throw new IllegalStateException("node " + nodeId + ": the log starts at " + log.startOffset()
                    + " but no snapshot reaches it");
        }
        l.recordContact(request.source(), nowTick);
        send(new FetchResponse(nodeId, request.source(), l.epoch(), nodeId, FetchError.NONE, request.fetchOffset(),
                request.lastFetchedEpoch(), highWatermark, -1, -1, List.of(), latestSnapshot));
    }

    private void handleFetchSnapshotRequest(FetchSnapshotRequest request) {
        FetchError error = FetchError.NONE;
        if (!(state instanceof LeaderState l)) {
            error = request.epoch() < state.epoch() ? FetchError.FENCED_LEADER_EPOCH : FetchError.NOT_LEADER;
        } else if (request.epoch() != l.epoch()) {
            error = request.epoch() < l.epoch() ? FetchError.FENCED_LEADER_EPOCH : FetchError.UNKNOWN_LEADER_EPOCH;
        } else if (!snapshots.contains(request.snapshotId())) {
            error = FetchError.SNAPSHOT_NOT_FOUND;
        } else if (request.position() < 0 || request.position() > snapshots.sizeBytes(request.snapshotId())) {
            error = FetchError.POSITION_OUT_OF_RANGE;
        }
        if (error != FetchError.NONE) {
            send(new FetchSnapshotResponse(nodeId, request.source(), state.epoch(), leaderOrNone(), error,
                    request.snapshotId(), -1, request.position(), new byte[0], 0, true));
            return;
        }
        LeaderState l = (LeaderState) state;
        l.recordContact(request.source(), nowTick);
        // The requested range goes back as a stream of chunks, each with its own position and checksum.
        long sizeBytes = snapshots.sizeBytes(request.snapshotId());
        long end = Math.min(sizeBytes, request.position() + Math.max(0, Math.min(request.maxBytes(),
                RaftConfig.MAX_SNAPSHOT_FETCH_BYTES)));
        long position = request.position();
        do {
            int length = (int) Math.min(config.snapshotChunkBytes(), end - position);
            byte[] data = snapshots.read(request.snapshotId(), position, length);
            send(new FetchSnapshotResponse(nodeId, request.source(), l.epoch(), nodeId, FetchError.NONE,
                    request.snapshotId(), sizeBytes, position, data, Crc32c.of(data), position + length >= end));
            position += length;
        } while (position < end);
    }

    private void sendFetchResponse(LeaderState l, FetchRequest request) {
        List<LogEntry> entries = log.read(request.fetchOffset(), config.fetchMaxEntries());
        l.recordHighWatermarkSent(request.source(), highWatermark);
        send(new FetchResponse(nodeId, request.source(), l.epoch(), nodeId, FetchError.NONE, request.fetchOffset(),
                request.lastFetchedEpoch(), highWatermark, -1, -1, entries));
    }

    private void answerParkedFetches(LeaderState l) {
        for (LeaderState.ParkedFetch parked : l.unparkAll()) {
            sendFetchResponse(l, parked.request());
        }
    }

    private FetchResponse fetchError(FetchRequest request, FetchError error, OptionalInt leader) {
        return new FetchResponse(nodeId, request.source(), state.epoch(), leader.orElse(RaftMessage.NO_LEADER), error,
                request.fetchOffset(), request.lastFetchedEpoch(), highWatermark, -1, -1, List.of());
    }

    private boolean maybeAdvanceLeaderHighWatermark(LeaderState l) {
        long candidate = l.majorityEndOffset(flushedEndOffset, config.majority());
        if (candidate > highWatermark) {
            advanceHighWatermark(candidate);
            return true;
        }
        return false;
    }

    // ---------------------------------------------------------------- fetch: follower and observer side

    private void maybeSendFetch() {
        FetchSession session;
        OptionalInt target;
        if (state instanceof FollowerState f && f.hasLeader()) {
            session = f.fetch();
            target = f.leaderId();
        } else if (state instanceof ObserverState o) {
            session = o.fetch();
            target = o.leaderId().isPresent() ? o.leaderId() : randomVoter();
        } else {
            return;
        }
        if (target.isEmpty() || !session.canSend(nowTick)) {
            return;
        }
        if (fetchingSnapshot != null) {
            long position = snapshots.receivedBytes(fetchingSnapshot);
            snapshotRequestEnd = position + RaftConfig.MAX_SNAPSHOT_FETCH_BYTES;
            send(new FetchSnapshotRequest(nodeId, target.getAsInt(), state.epoch(), fetchingSnapshot, position,
                    RaftConfig.MAX_SNAPSHOT_FETCH_BYTES));
            session.sent(nowTick + config.requestTimeoutTicks());
            return;
        }
        // Fetching from an offset acknowledges everything below it, so only durable entries may be behind it.
        if (flushedEndOffset < log.endOffset()) {
            return;
        }
        send(new FetchRequest(nodeId, target.getAsInt(), state.epoch(), log.endOffset(), log.lastEpoch()));
        session.sent(nowTick + config.requestTimeoutTicks());
    }

    /** How soon an observer looking for the leader asks again after a voter could not tell it. */
    private long discoveryRetryTicks() {
        return Math.max(1, config.electionTimeoutTicks() / 20);
    }

    private OptionalInt randomVoter() {
        List<Integer> candidates = config.voterIds().stream().filter(id -> id != nodeId).sorted().toList();
        if (candidates.size() > 1 && candidates.contains(unreachableVoter)) {
            candidates = candidates.stream().filter(id -> id != unreachableVoter).toList();
        }
        return candidates.isEmpty() ? OptionalInt.empty()
                : OptionalInt.of(candidates.get(random.nextInt(candidates.size())));
    }

    private void handleFetchResponse(FetchResponse response) {
        FetchSession session;
        if (state instanceof FollowerState f) {
            session = f.fetch();
        } else if (state instanceof ObserverState o) {
            session = o.fetch();
        } else {
            return;
        }
        if (response.epoch() != state.epoch()) {
            return;
        }
        boolean fromLeader = state.leaderId().equals(OptionalInt.of(response.source()));
        if (state.leaderId().isEmpty() && response.leaderId() != RaftMessage.NO_LEADER
                && response.leaderId() != nodeId && config.voterIds().contains(response.leaderId())) {
            // Someone in our epoch knows the leader (a discovery fetch, or a voter that missed BeginQuorumEpoch).
            adoptLeader(response.leaderId());
            return;
        }
        if (!fromLeader) {
            if (state instanceof ObserverState o && o.leaderId().isEmpty()) {
                // The voter asked knows no leader either (an election is on): ask again soon, not after the
                // request timeout, or the observer learns the new leader seconds after it was elected.
                o.fetch().retryBy(nowTick + discoveryRetryTicks());
            }
            return;
        }
        if (response.error() != FetchError.NONE) {
            session.answered();
            if (response.error() == FetchError.NOT_LEADER) {
                loseLeader();
            }
            return;
        }
        if (log.endOffset() != response.fetchOffset() || log.lastEpoch() != response.lastFetchedEpoch()) {
            return; // a duplicate or an answer to an older position
        }
        session.answered();
        session.contacted(nowTick + config.fetchTimeoutTicks());
        if (response.snapshotNeeded()) {
            fetchingSnapshot = response.snapshotId();
            maybeSendFetch();
            return;
        }
        if (response.diverging()) {
            truncateToLeader(response);
        } else if (!response.entries().isEmpty()) {
            if (response.entries().get(0).offset() != log.endOffset()) {
                throw new IllegalStateException("node " + nodeId + ": fetched entries start at "
                        + response.entries().get(0).offset() + " but the log ends at " + log.endOffset());
            }
            log.append(response.entries());
            flushNeeded = true;
        }
        long knownCommitted = Math.min(response.highWatermark(), log.endOffset());
        if (!response.diverging() && knownCommitted > highWatermark) {
            advanceHighWatermark(knownCommitted);
        }
        maybeSendFetch();
    }

    private void handleFetchSnapshotResponse(FetchSnapshotResponse response) {
        FetchSession session;
        if (state instanceof FollowerState f) {
            session = f.fetch();
        } else if (state instanceof ObserverState o) {
            session = o.fetch();
        } else {
            return;
        }
        SnapshotId id = response.snapshotId();
        if (response.epoch() != state.epoch() || !state.leaderId().equals(OptionalInt.of(response.source()))
                || !id.equals(fetchingSnapshot) || response.position() != snapshots.receivedBytes(id)) {
            // Stale, duplicate, not from our leader, or after a lost chunk: the request timeout asks again.
            return;
        }
        if (response.error() != FetchError.NONE) {
            session.answered();
            if (response.error() == FetchError.NOT_LEADER) {
                loseLeader();
                return;
            }
            fetchingSnapshot = null; // the leader moved on to a newer snapshot: ask again which one
            maybeSendFetch();
            return;
        }
        session.contacted(nowTick + config.fetchTimeoutTicks());
        try {
            snapshots.receive(id, response.position(), response.data(), response.crc32c());
            long received = snapshots.receivedBytes(id);
            if (received >= response.sizeBytes()) {
                session.answered();
                snapshots.install(id);
                installSnapshot(id);
            } else if (received >= snapshotRequestEnd) {
                session.answered(); // this request's stream is complete: ask for the next range
            }
        } catch (CorruptSnapshotException e) {
            // The chunk (or the whole, when its manifest fails) is dropped untouched and fetched again at once; the
            // rest of this stream no longer lines up and is ignored.
            session.answered();
            rejectedSnapshotChunks++;
            lastSnapshotError = e.getMessage();
        }
        maybeSendFetch();
    }

    /** A fetched snapshot is durable: the log now starts at its end and the state machine reloads from it. */
    private void installSnapshot(SnapshotId id) {
        fetchingSnapshot = null;
        log.deletePrefix(id);
        flushedEndOffset = Math.max(Math.min(flushedEndOffset, log.endOffset()), log.startOffset());
        latestSnapshot = id;
        committedOut.clear(); // everything not yet handed out lies below the snapshot's end
        highWatermark = Math.max(highWatermark, id.endOffset());
        nextOffsetToDeliver = id.endOffset();
        loadSnapshotOut = id;
        deliverCommitted();
    }

    private void adoptLeader(int leaderId) {
        if (state instanceof FollowerState f) {
            becomeFollower(f.epoch(), OptionalInt.of(leaderId), f.votedId(), randomElectionTimeout());
        } else {
            becomeObserver(state.epoch(), OptionalInt.of(leaderId));
        }
    }

    private void loseLeader() {
        if (state instanceof FollowerState f) {
            becomeFollower(f.epoch(), OptionalInt.empty(), f.votedId(), randomElectionTimeout());
        } else {
            becomeObserver(state.epoch(), OptionalInt.empty());
        }
    }

    /**
     * The leader's log has epoch {@code divergingEpoch} ending at {@code divergingEndOffset}; we cut ours where both
     * logs provably agree and fetch again from there. Committed entries always lie below that point.
     */
    private void truncateToLeader(FetchResponse response) {
        OffsetAndEpoch ours = log.endOffsetForEpoch(response.divergingEpoch());
        long truncateOffset = Math.min(response.divergingEndOffset(), ours.offset());
        if (truncateOffset < highWatermark) {
            throw new IllegalStateException("node " + nodeId + ": leader " + response.source()
                    + " asks to truncate to " + truncateOffset + " below the high watermark " + highWatermark);
        }
        log.truncateTo(truncateOffset);
        flushedEndOffset = Math.min(flushedEndOffset, truncateOffset);
    }

    // ---------------------------------------------------------------- commit

    private void advanceHighWatermark(long newHighWatermark) {
        if (newHighWatermark <= highWatermark) {
            throw new IllegalStateException("node " + nodeId + ": high watermark would move from " + highWatermark
                    + " to " + newHighWatermark);
        }
        highWatermark = newHighWatermark;
        pendingAppends.completeBelow(highWatermark);
        deliverCommitted();
        if (state instanceof LeaderState l && !l.readyAnnounced() && highWatermark > l.epochStartOffset()) {
            // The epoch's leader-change record committed, so every earlier record has been delivered above.
            l.markReadyAnnounced();
            leaderReadyOut = new LeaderReady(l.epoch(), log.endOffset());
        }
    }

    /** Cuts the newly committed range into batches of consecutive data records of one epoch. */
    private void deliverCommitted() {
        while (nextOffsetToDeliver < highWatermark) {
            int max = (int) Math.min(Integer.MAX_VALUE, highWatermark - nextOffsetToDeliver);
            List<LogEntry> entries = log.read(nextOffsetToDeliver, max);
            if (entries.isEmpty()) {
                throw new IllegalStateException("node " + nodeId + ": committed offset " + nextOffsetToDeliver
                        + " is missing from the log");
            }
            List<byte[]> run = new ArrayList<>();
            long runStart = -1;
            int runEpoch = -1;
            for (LogEntry entry : entries) {
                if (!entry.isData() || entry.epoch() != runEpoch) {
                    if (!run.isEmpty()) {
                        committedOut.add(new CommittedBatch(runStart, runEpoch, run));
                        run = new ArrayList<>();
                    }
                    runEpoch = entry.epoch();
                }
                if (entry.isData()) {
                    if (run.isEmpty()) {
                        runStart = entry.offset();
                    }
                    run.add(entry.payload());
                }
            }
            if (!run.isEmpty()) {
                committedOut.add(new CommittedBatch(runStart, runEpoch, run));
            }
            nextOffsetToDeliver += entries.size();
        }
    }

    // ---------------------------------------------------------------- helpers

    private boolean observesNewerEpoch(RaftMessage message) {
        // A pre-vote must not move anybody's epoch, and a fetch at a newer epoch means the sender knows more.
        return !(message instanceof VoteRequest v && v.preVote()) && !(message instanceof FetchRequest);
    }

    private static OptionalInt leaderNamedBy(RaftMessage message) {
        int leaderId = RaftMessage.NO_LEADER;
        if (message instanceof BeginQuorumEpoch m) {
            leaderId = m.source();
        } else if (message instanceof FetchResponse m) {
            leaderId = m.leaderId();
        } else if (message instanceof VoteResponse m) {
            leaderId = m.leaderId();
        } else if (message instanceof BeginQuorumEpochResponse m) {
            leaderId = m.leaderId();
        }
        return leaderId == RaftMessage.NO_LEADER ? OptionalInt.empty() : OptionalInt.of(leaderId);
    }

    private int leaderOrNone() {
        return state.leaderId().orElse(RaftMessage.NO_LEADER);
    }

    private int randomElectionTimeout() {
        return config.electionTimeoutTicks() + random.nextInt(config.electionTimeoutTicks());
    }

    private void send(RaftMessage message) {
        outbox.add(message);
    }
}
