package io.kraft.raft;

import io.kraft.storage.errors.Errors;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes of the voter set, KIP-853's way: on the leader only, one voter at a time (so any majority of the old set
 * meets any majority of the new one), only once the leader has committed a record of its own epoch and no earlier
 * change is uncommitted, and adding only a replica that caught up as an observer. A change is a voters record of
 * its own, in force on every member as soon as it is in its log. Also keeps every role in step with the set: an
 * observer added becomes a follower, a voter removed an observer, and a leader removed resigns once its removal
 * commits.
 */
final class VoterChanges {
    private static final Logger log = LoggerFactory.getLogger(VoterChanges.class);

    private final NodeContext node;
    private final CommitTracker commits;
    private final LeaderReplication leading;
    private VoterSet lastSeen;

    VoterChanges(NodeContext node, CommitTracker commits, LeaderReplication leading) {
        this.node = node;
        this.commits = commits;
        this.leading = leading;
        this.lastSeen = node.voters();
    }

    /** AddRaftVoter on the leader: completes with the record's offset once the new set commits. */
    CompletableFuture<Long> add(LeaderState leader, Voter voter) {
        Errors refusal = checkCanChange(leader);
        if (refusal != null) {
            return refused(refusal, "cannot add voter " + voter.id() + " now: " + why(refusal));
        }
        VoterSet current = node.voters();
        if (current.contains(voter.id())) {
            return refused(Errors.DUPLICATE_VOTER, "voter " + voter.id() + " is already in the voter set " + current);
        }
        if (!caughtUp(leader, voter.id())) {
            return refused(Errors.REQUEST_TIMED_OUT, "replica " + voter.id() + " has not caught up with the leader as "
                    + "an observer within the fetch timeout");
        }
        return appendChange(leader, current.with(voter), "added voter " + voter);
    }

    /** RemoveRaftVoter on the leader: completes with the record's offset once the new set commits. */
    CompletableFuture<Long> remove(LeaderState leader, int voterId, UUID directoryId) {
        Errors refusal = checkCanChange(leader);
        if (refusal != null) {
            return refused(refusal, "cannot remove voter " + voterId + " now: " + why(refusal));
        }
        VoterSet current = node.voters();
        if (!current.contains(voterId, directoryId)) {
            return refused(Errors.VOTER_NOT_FOUND, "voter " + voterId + " with directory " + directoryId
                    + " is not in the voter set " + current);
        }
        if (current.size() == 1) {
            return refused(Errors.INVALID_REQUEST, "cannot remove the last voter " + voterId);
        }
        return appendChange(leader, current.without(voterId), "removed voter " + voterId);
    }

    /**
     * UpdateRaftVoter on the leader: a voter that restarted with other listeners states its new endpoint. The set's
     * members do not change, so this is no membership change for the one-at-a-time rule; it completes at once when
     * nothing changes.
     */
    CompletableFuture<Long> update(LeaderState leader, Voter voter) {
        VoterSet current = node.voters();
        if (!current.contains(voter.id(), voter.directoryId())) {
            return refused(Errors.VOTER_NOT_FOUND, "voter " + voter.id() + " with directory " + voter.directoryId()
                    + " is not in the voter set " + current);
        }
        if (current.voter(voter.id()).orElseThrow().equals(voter)) {
            return CompletableFuture.completedFuture(node.voterHistory.latestChangeOffset().orElse(-1));
        }
        Errors refusal = checkCanChange(leader);
        if (refusal != null) {
            return refused(refusal, "cannot update voter " + voter.id() + " now: " + why(refusal));
        }
        return appendChange(leader, current.with(voter), "updated voter " + voter);
    }

    /**
     * Restates the voter set in force as a new voters record when a snapshot covers the newest one (or the log has
     * none yet): a member deletes a log prefix only while a voters record remains after it, so the log always states
     * the set and a restart never falls back to the bootstrap. Only when a change could be made now; otherwise a
     * later snapshot tries again.
     */
    void restateIfCoveredBy(LeaderState leader, SnapshotId snapshot) {
        OptionalLong latest = node.voterHistory.latestChangeOffset();
        if (node.voterHistory.dynamic() && (latest.isEmpty() || latest.getAsLong() < snapshot.endOffset())
                && checkCanChange(leader) == null) {
            appendChange(leader, node.voters(), "restated the voter set");
        }
    }

    /** The set in force now, for an operator's description. */
    VoterSet current() {
        return node.voters();
    }

    /** Brings the role in line with the voter set in force; called after every event that may have changed it. */
    void reconcile(Transitions roles) {
        VoterSet voters = node.voters();
        RoleState state = roles.state();
        if (!voters.equals(lastSeen)) {
            log.info("Node {}: voter set is now {} (was {}), in epoch {} as {}", node.nodeId, voters, lastSeen,
                    state.epoch(), state.role());
            lastSeen = voters;
            if (state instanceof LeaderState leader) {
                leader.votersChanged(voters.ids());
                leading.ownLogFlushed(leader); // the majority changed: the high watermark may move now
            }
        }
        boolean voter = node.isLocalVoter();
        switch (roles.state().role()) {
            case OBSERVER -> {
                if (voter) {
                    roles.becomeFollower(state.epoch(), state.leaderId(), state.votedId(),
                            node.randomElectionTimeoutTicks());
                }
            }
            case FOLLOWER, PROSPECTIVE, CANDIDATE -> {
                if (!voter) {
                    roles.becomeObserver(state.epoch(), state.leaderId());
                }
            }
            case LEADER -> {
                OptionalLong change = node.voterHistory.latestChangeOffset();
                if (!voter && change.isPresent() && commits.highWatermark() > change.getAsLong()) {
                    log.info("Node {}: resigning leadership of epoch {}: its removal from the voter set committed",
                            node.nodeId, state.epoch());
                    leading.resign((LeaderState) roles.state());
                    roles.becomeObserver(roles.state().epoch(), roles.state().leaderId());
                }
            }
            default -> throw new IllegalStateException("unknown role " + state.role());
        }
    }

    private Errors checkCanChange(LeaderState leader) {
        if (!node.voterHistory.dynamic()) {
            return Errors.UNSUPPORTED_VERSION;
        }
        if (commits.highWatermark() <= leader.epochStartOffset()) {
            return Errors.REQUEST_TIMED_OUT;
        }
        OptionalLong pending = node.voterHistory.latestChangeOffset();
        if (pending.isPresent() && pending.getAsLong() >= commits.highWatermark()) {
            return Errors.REQUEST_TIMED_OUT;
        }
        return null;
    }

    private static String why(Errors refusal) {
        return refusal == Errors.UNSUPPORTED_VERSION
                ? "the quorum's voters are static (kraft.version 0: controller.quorum.voters)"
                : "the leader has not committed a record of its epoch yet, or an earlier voter change is uncommitted";
    }

    /** Caught up now: fetched within the fetch timeout and had the leader's whole log at some fetch within it. */
    private boolean caughtUp(LeaderState leader, int replicaId) {
        long horizon = node.now() - node.config.fetchTimeoutTicks();
        return leader.progressOf(replicaId)
                .map(p -> p.lastFetchTick() >= horizon && p.lastCaughtUpTick() >= horizon)
                .orElse(false);
    }

    private CompletableFuture<Long> appendChange(LeaderState leader, VoterSet next, String what) {
        long offset = node.log.endOffset();
        leading.appendControl(leader, LogEntry.voters(offset, leader.epoch(), next));
        log.info("Node {}: {} at offset {} in epoch {}; voters now {}", node.nodeId, what, offset, leader.epoch(),
                next);
        CompletableFuture<Long> future = new CompletableFuture<>();
        commits.awaitCommit(offset, future);
        return future;
    }

    private static CompletableFuture<Long> refused(Errors error, String message) {
        return CompletableFuture.failedFuture(new VoterChangeException(error, message));
    }
}
