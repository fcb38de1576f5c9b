package io.kraft.raft;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.random.RandomGenerator;

/**
 * One member of a Raft quorum as a deterministic state machine. Events come in through {@link #tick()},
 * {@link #handle(RaftMessage)}, {@link #handleLogFlushed(long)}, {@link #handleSnapshotInstalled},
 * {@link #handleSnapshotRejected}, {@link #append(List)}, {@link #resign()}, {@link #snapshotCreated(SnapshotId)}
 * and {@link #deleteLogPrefix(SnapshotId)}; the work they cause, every write included, comes out of
 * {@link #ready()}. It reads the log and the snapshots but never writes them, owns no thread, socket or clock, and
 * draws randomness only from the generator it is given, so a seeded driver replays it exactly. Not thread-safe: one
 * driver thread.
 *
 * <p>This class is the façade and the one place roles change ({@code transitionTo}); what a role does with an
 * event is its {@code RoleStep}, and the decisions live in one part each: {@code Election},
 * {@code LeaderReplication}, {@code FollowerReplication}, {@code SnapshotTransfer}, {@code ObserverDiscovery},
 * {@code CommitTracker} and {@code LogView} (see the package description).
 */
public final class RaftNode {
    private final NodeContext node;
    private final CommitTracker commits;
    private final SnapshotTransfer snapshotTransfer;
    private final EpochGate epochGate;
    private final NodeParts parts;
    private final VoterChanges voterChanges;
    private RoleStep step;
    private QuorumState persistedState;
    private LeaderAndEpoch announcedLeader;

    /**
     * Restores a node from what survived on disk: the log (everything in it counts as durable, but for an incomplete
     * batch at its end, which a crash tore and which the first {@link Ready} truncates) and the last persisted
     * quorum state. A node that was leader before it stopped comes back as a follower of that epoch
     * without a leader, because its leader bookkeeping is gone. The node only reads {@code log}; the driver applies
     * the writes each {@link Ready} hands out.
     */
    public RaftNode(RaftConfig config, ReadableRaftLog log, QuorumState persisted, RandomGenerator random) {
        this(config, log, new InMemorySnapshotStore(), persisted, random);
    }

    /**
     * Restores a node as above, starting from the latest stored snapshot: the state machine loads it first (see
     * {@link Ready#loadSnapshot()}) and then receives the committed records after it.
     */
    public RaftNode(RaftConfig config, ReadableRaftLog log, ReadableSnapshotStore snapshots, QuorumState persisted,
                    RandomGenerator random) {
        this(config, log, snapshots, persisted, random, VoterBootstrap.fromStatic(config));
    }

    /**
     * Restores a node as above whose voter set starts from {@code bootstrap} (static, or KIP-853's bootstrap
     * checkpoint) and then follows the voters records in its log.
     */
    public RaftNode(RaftConfig config, ReadableRaftLog log, ReadableSnapshotStore snapshots, QuorumState persisted,
                    RandomGenerator random, VoterBootstrap bootstrap) {
        this.node = new NodeContext(Objects.requireNonNull(config, "config"), Objects.requireNonNull(log, "log"),
                Objects.requireNonNull(snapshots, "snapshots"), Objects.requireNonNull(random, "random"),
                Objects.requireNonNull(bootstrap, "bootstrap"));
        this.commits = new CommitTracker(node);
        this.snapshotTransfer = new SnapshotTransfer(node, commits);
        snapshotTransfer.restore();
        if (node.log.lastEpoch() > persisted.epoch()) {
            throw new IllegalStateException("persisted quorum epoch " + persisted.epoch() + " is behind the log's last "
                    + "epoch " + node.log.lastEpoch() + ": the quorum state is stale or lost");
        }
        node.log.dropIncompleteBatch();
        node.log.flushedTo(node.log.endOffset());
        Transitions roles = new Roles();
        this.epochGate = new EpochGate(node, roles);
        this.parts = new NodeParts(node, roles, new Election(node, roles),
                new LeaderReplication(node, commits, snapshotTransfer, roles),
                new FollowerReplication(node, commits, snapshotTransfer), snapshotTransfer, new ObserverDiscovery(node));
        this.voterChanges = new VoterChanges(node, commits, parts.leading());
        this.persistedState = persisted;
        OptionalInt leader = persisted.leaderId().isPresent() && persisted.leaderId().getAsInt() == node.nodeId
                ? OptionalInt.empty() : persisted.leaderId();
        if (node.isLocalVoter()) {
            // A lone voter has nobody to hear from: waiting out an election timeout would only delay its start. A
            // voter that led before it stopped has no leader to follow, and the others have most likely elected one
            // meanwhile: its pre-vote (KIP-996, which disturbs no live leader) at once is answered with that leader,
            // where waiting would leave it behind for an election timeout (a whole quorum restarting has one such
            // voter at most, so the early round does not collide with others). Likewise a quorum that never held an
            // election (epoch 0): its lowest-id voter stands at once and the others wait as usual, so a new cluster
            // whose voters start together elects without waiting out a timeout and without a split vote.
            boolean loneVoter = node.voters().size() == 1;
            boolean ledBefore = persisted.leaderId().isPresent() && persisted.leaderId().getAsInt() == node.nodeId;
            boolean firstOfNewQuorum = persisted.epoch() == 0 && !node.voters().isEmpty()
                    && node.voters().ids().first() == node.nodeId;
            this.step = new FollowerStep(parts, newFollower(persisted.epoch(), leader, persisted.votedId(),
                    loneVoter || ledBefore || firstOfNewQuorum ? 0 : node.randomElectionTimeoutTicks()));
        } else {
            this.step = new ObserverStep(parts, new ObserverState(persisted.epoch(), leader, persisted.votedId(),
                    node.now() + config.fetchTimeoutTicks()));
        }
        this.announcedLeader = new LeaderAndEpoch(step.state().leaderId(), step.state().epoch());
        node.out.leaderChanged(announcedLeader);
    }

    // ---------------------------------------------------------------- events

    /** Advances the logical clock by one tick and fires whatever timer ran out. */
    public void tick() {
        node.advanceClock();
        step.tick();
        voterChanges.reconcile(parts.roles());
    }

    /** Handles one message addressed to this node. */
    public void handle(RaftMessage message) {
        if (message.destination() != node.nodeId) {
            throw new IllegalArgumentException("message for node " + message.destination()
                    + " delivered to node " + node.nodeId + ": " + message);
        }
        if (!epochGate.admit(message)) {
            return; // an epoch too far ahead to be real: believing it could leave the quorum without a next epoch
        }
        message.dispatchTo(step);
        voterChanges.reconcile(parts.roles());
    }

    /**
     * The driver flushed the log, having applied every log write handed out so far; {@code flushedEndOffset} is the
     * log end offset the flush covered. Only now may a follower acknowledge these entries (by fetching past them) and
     * the leader count its own copy.
     */
    public void handleLogFlushed(long flushedEndOffset) {
        node.log.flushed(flushedEndOffset);
        step.logFlushed();
        voterChanges.reconcile(parts.roles());
    }

    /**
     * The driver installed snapshot {@code id} as {@link Ready.SnapshotWrites#install()} asked: the log now starts at
     * its end, the state machine is told to load it, and fetching resumes after it.
     */
    public void handleSnapshotInstalled(SnapshotId id) {
        snapshotTransfer.installed(id);
        step.maybeSendFetch();
        voterChanges.reconcile(parts.roles());
    }

    /**
     * Snapshot {@code id} failed its verification as a whole when the driver installed it ({@code reason} says why);
     * the store dropped what was received, and the snapshot is fetched again.
     */
    public void handleSnapshotRejected(SnapshotId id, String reason) {
        snapshotTransfer.installRejected(id, reason);
        step.maybeSendFetch();
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
        long bytes = 0;
        for (byte[] record : records) {
            bytes += record.length;
        }
        if (bytes > RaftConfig.MAX_BATCH_BYTES) {
            // It could be written, but never fetched whole: followers would stall on it for good.
            return CompletableFuture.failedFuture(new BatchTooLargeException(records.size(), bytes));
        }
        return step.append(records);
    }

    /**
     * The state machine stored snapshot {@code id} in the snapshot store; it covers records it has applied, so at
     * most what this node knows to be committed. It becomes what lagging fetchers are sent.
     */
    public void snapshotCreated(SnapshotId id) {
        snapshotTransfer.snapshotCreated(id);
        if (step.state() instanceof LeaderState leader) {
            voterChanges.restateIfCoveredBy(leader, id);
        }
    }

    /**
     * On the leader, adds {@code voter} to the voter set (KIP-853's AddRaftVoter). The future completes with the
     * voters record's offset once the new set commits, or fails with a {@link VoterChangeException} carrying Kafka's
     * error (the replica has not caught up, a change is pending, it is a voter already) or {@link NotLeaderException}.
     */
    public CompletableFuture<Long> addVoter(Voter voter) {
        if (!(step.state() instanceof LeaderState leader)) {
            return step.append(List.of()); // fails with NotLeaderException, naming the leader we know
        }
        CompletableFuture<Long> result = voterChanges.add(leader, voter);
        voterChanges.reconcile(parts.roles());
        return result;
    }

    /** On the leader, removes voter {@code voterId} with log directory {@code directoryId} (KIP-853's RemoveRaftVoter). */
    public CompletableFuture<Long> removeVoter(int voterId, java.util.UUID directoryId) {
        if (!(step.state() instanceof LeaderState leader)) {
            return step.append(List.of());
        }
        CompletableFuture<Long> result = voterChanges.remove(leader, voterId, directoryId);
        voterChanges.reconcile(parts.roles());
        return result;
    }

    /** On the leader, records voter {@code voter}'s new endpoint (KIP-853's UpdateRaftVoter). */
    public CompletableFuture<Long> updateVoter(Voter voter) {
        if (!(step.state() instanceof LeaderState leader)) {
            return step.append(List.of());
        }
        CompletableFuture<Long> result = voterChanges.update(leader, voter);
        voterChanges.reconcile(parts.roles());
        return result;
    }

    /**
     * Deletes the log prefix snapshot {@code id} covers (the driver decides when, from the retention settings). A
     * member fetching below the new log start is then sent the snapshot.
     */
    public void deleteLogPrefix(SnapshotId id) {
        snapshotTransfer.deleteLogPrefix(id);
    }

    /**
     * The driver's transport could not reach node {@code peerId} at all (connection refused or unavailable, as when
     * its process died), unlike a slow answer. A prospective or candidate counts it as refusing its vote. An observer
     * looking for the leader asks another voter soon instead of waiting out the request timeout. If it is our leader
     * we give up on it after a short grace instead of the full fetch timeout, then run a pre-vote; a leader that is
     * alive keeps its followers, since voters that still hear from it refuse the pre-vote.
     */
    public void peerUnreachable(int peerId) {
        step.peerUnreachable(peerId);
    }

    /** A leader steps down gracefully, telling voters to elect a successor at once; otherwise a no-op. */
    public void resign() {
        step.resign();
    }

    // ---------------------------------------------------------------- actions out

    /** Whether {@link #ready()} has anything to hand out. */
    public boolean hasReady() {
        return node.out.hasWork() || node.log.hasWrites() || !step.state().quorumState().equals(persistedState);
    }

    /** Hands out the accumulated work and forgets it; see {@link Ready} for the order the driver must keep. */
    public Ready ready() {
        Optional<QuorumState> toPersist = Optional.empty();
        if (!step.state().quorumState().equals(persistedState)) {
            persistedState = step.state().quorumState();
            toPersist = Optional.of(persistedState);
        }
        return node.out.build(toPersist, node.log.takeWrites());
    }

    // ---------------------------------------------------------------- introspection

    public int nodeId() {
        return node.nodeId;
    }

    public Role role() {
        return step.state().role();
    }

    public int epoch() {
        return step.state().epoch();
    }

    public OptionalInt leaderId() {
        return step.state().leaderId();
    }

    /** The voter set in force on this node: the latest its log states, committed or not. */
    public VoterSet voters() {
        return node.voters();
    }

    /** Whether voters may change (kraft.version 1), rather than being fixed by configuration. */
    public boolean dynamicVoters() {
        return node.voterHistory.dynamic();
    }

    /** Offsets below this are committed (and known to be so by this node). */
    public long highWatermark() {
        return commits.highWatermark();
    }

    /** Offsets below this are committed as far as this node heard from a leader, fetched or not. */
    public long leaderHighWatermark() {
        return commits.leaderHighWatermark();
    }

    /** The log end offset this node knows to be durable. */
    public long flushedEndOffset() {
        return node.log.flushedEndOffset();
    }

    public long currentTick() {
        return node.now();
    }

    /** The first offset in this node's log; below it only the snapshot remains. */
    public long logStartOffset() {
        return node.log.startOffset();
    }

    /**
     * The log as this node sees it: the driver's log with the writes this node made on top, whether or not the driver
     * has carried them out yet.
     */
    public ReadableRaftLog log() {
        return node.log;
    }

    /** The newest snapshot this node made or installed. */
    public Optional<SnapshotId> latestSnapshot() {
        return snapshotTransfer.latest();
    }

    /** How many received snapshot chunks (or whole snapshots) failed their checks and were fetched again. */
    public long rejectedSnapshotChunks() {
        return snapshotTransfer.rejectedChunks();
    }

    /** Why the last rejected snapshot chunk was rejected, if any was. */
    public Optional<String> lastSnapshotError() {
        return snapshotTransfer.lastError();
    }

    /** On the leader, what every voter and observer has acknowledged; empty on other nodes. */
    public List<ReplicaProgress> replicaProgress() {
        return step.replicaProgress();
    }

    @Override
    public String toString() {
        return "RaftNode(" + node.nodeId + ", " + step.state() + ", hw=" + commits.highWatermark() + ", end="
                + node.log.endOffset() + ", voters=" + node.voters().ids() + ")";
    }

    // ---------------------------------------------------------------- transitions (all go through transitionTo)

    private FollowerState newFollower(int epoch, OptionalInt leaderId, OptionalInt votedId, int electionTimeoutTicks) {
        return new FollowerState(epoch, leaderId, votedId, node.now() + electionTimeoutTicks,
                node.now() + node.config.fetchTimeoutTicks());
    }

    /** The single gate every role change passes: legal transition, epochs never go back, one leader and vote per epoch. */
    private void transitionTo(RoleStep nextStep) {
        RoleState previous = step.state();
        RoleState next = nextStep.state();
        snapshotTransfer.stopFetching(); // a new leader says itself which snapshot it wants fetched; partial data stays
        if (!previous.role().canTransitionTo(next.role())) {
            throw new IllegalStateException("node " + node.nodeId + ": illegal transition " + previous + " -> " + next);
        }
        if (next.epoch() < previous.epoch()) {
            throw new IllegalStateException("node " + node.nodeId + ": epoch would go back " + previous + " -> " + next);
        }
        if (next.epoch() == previous.epoch()) {
            if (previous.leaderId().isPresent() && next.leaderId().isPresent()
                    && previous.leaderId().getAsInt() != next.leaderId().getAsInt()) {
                throw new IllegalStateException("node " + node.nodeId + ": two leaders in one epoch " + previous
                        + " -> " + next);
            }
            if (previous.votedId().isPresent() && !previous.votedId().equals(next.votedId())) {
                throw new IllegalStateException("node " + node.nodeId + ": vote changed within an epoch " + previous
                        + " -> " + next);
            }
        }
        if (previous.role() == Role.LEADER && next.role() != Role.LEADER) {
            commits.failPendingAppends(new NotLeaderException(node.nodeId, previous.epoch(), next.leaderId()));
        }
        step = nextStep;
        LeaderAndEpoch leaderAndEpoch = new LeaderAndEpoch(next.leaderId(), next.epoch());
        if (!leaderAndEpoch.equals(announcedLeader)) {
            announcedLeader = leaderAndEpoch;
            node.out.leaderChanged(leaderAndEpoch);
        }
    }

    /** The role changes the parts may ask for, each building the new role's state and step and passing the gate. */
    private final class Roles implements Transitions {
        @Override
        public RoleStep current() {
            return step;
        }

        @Override
        public void becomeFollower(int epoch, OptionalInt leaderId, OptionalInt votedId, int electionTimeoutTicks) {
            transitionTo(new FollowerStep(parts, newFollower(epoch, leaderId, votedId, electionTimeoutTicks)));
            step.maybeSendFetch();
        }

        @Override
        public void becomeObserver(int epoch, OptionalInt leaderId) {
            if (step.state().role() == Role.LEADER) {
                // A leader removed from the voter set (KIP-853) that meets a newer epoch steps down through follower,
                // the one role a leader may pass to.
                RoleState leader = step.state();
                transitionTo(new FollowerStep(parts, newFollower(leader.epoch(), OptionalInt.empty(), leader.votedId(),
                        node.randomElectionTimeoutTicks())));
            }
            RoleState current = step.state();
            OptionalInt votedId = current.epoch() == epoch ? current.votedId() : OptionalInt.empty();
            transitionTo(new ObserverStep(parts, new ObserverState(epoch, leaderId, votedId,
                    node.now() + node.config.fetchTimeoutTicks())));
            step.maybeSendFetch();
        }

        @Override
        public void becomeProspective() {
            ProspectiveState prospective = parts.election().newPreVoteRound();
            transitionTo(new ProspectiveStep(parts, prospective));
            if (prospective.tally().won()) {
                becomeCandidate();
                return;
            }
            parts.election().askForVotes(prospective.candidateEpoch(), true);
        }

        @Override
        public void becomeCandidate() {
            CandidateState candidate = parts.election().newCandidacy();
            transitionTo(new CandidateStep(parts, candidate));
            if (candidate.tally().won()) {
                becomeLeader();
                return;
            }
            parts.election().askForVotes(candidate.epoch(), false);
        }

        @Override
        public void becomeLeader() {
            LeaderState leader = parts.leading().newLeadership();
            transitionTo(new LeaderStep(parts, leader));
            parts.leading().openEpoch(leader);
        }
    }
}
