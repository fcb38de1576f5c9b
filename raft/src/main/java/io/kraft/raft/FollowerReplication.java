package io.kraft.raft;

import io.kraft.raft.RaftMessage.FetchError;
import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.FetchResponse;
import java.util.List;
import java.util.OptionalInt;

/**
 * The fetching side of replication, for followers and observers alike: one fetch in flight at a time, sent only
 * from a durable log end (the fetch offset is the acknowledgement), appending the whole batches the leader returns,
 * truncating where the leader says the logs diverge, and learning the high watermark from it. Since the log holds
 * whole batches only, its end and so every acknowledgement lies between batches.
 */
final class FollowerReplication {
    private final NodeContext node;
    private final CommitTracker commits;
    private final SnapshotTransfer snapshots;

    FollowerReplication(NodeContext node, CommitTracker commits, SnapshotTransfer snapshots) {
        this.node = node;
        this.commits = commits;
        this.snapshots = snapshots;
    }

    /** Sends the next fetch (of entries, or of the snapshot being fetched) to {@code target} if one may go now. */
    void maybeSendFetch(RoleState state, FetchSession session, OptionalInt target) {
        if (target.isEmpty() || !session.canSend(node.now())) {
            return;
        }
        if (snapshots.isInstalling()) {
            return; // the driver reports the outcome of the install first
        }
        if (snapshots.isFetching()) {
            snapshots.requestChunks(state, target.getAsInt());
            session.sent(node.now() + node.config.requestTimeoutTicks());
            return;
        }
        // Fetching from an offset acknowledges everything below it, so only durable entries may be behind it.
        if (node.log.flushedEndOffset() < node.log.endOffset()) {
            return;
        }
        node.send(new FetchRequest(node.nodeId, target.getAsInt(), state.epoch(), node.log.endOffset(),
                node.log.lastEpoch()));
        session.sent(node.now() + node.config.requestTimeoutTicks());
    }

    void onFetchResponse(FetchingStep step, FetchResponse response) {
        RoleState state = step.state();
        FetchSession session = step.fetchSession();
        if (response.epoch() != state.epoch()) {
            return;
        }
        if (state.leaderId().isEmpty() && response.leaderId() != RaftMessage.NO_LEADER
                && response.leaderId() != node.nodeId
                && (node.trusts(response.leaderId()) || node.isVoter(response.source()))) {
            // Someone in our epoch knows the leader (a discovery fetch, or a voter that missed BeginQuorumEpoch); a voter
            // we know may name one we do not, added by a voters record we have not fetched yet.
            step.adoptLeader(response.leaderId());
            return;
        }
        if (!state.leaderId().equals(OptionalInt.of(response.source()))) {
            step.answeredByNonLeader();
            return;
        }
        if (response.error() != FetchError.NONE) {
            session.answered();
            if (response.error() == FetchError.NOT_LEADER) {
                step.loseLeader();
            }
            return;
        }
        if (node.log.endOffset() != response.fetchOffset() || node.log.lastEpoch() != response.lastFetchedEpoch()) {
            return; // a duplicate or an answer to an older position
        }
        session.answered();
        session.contacted(node.now() + node.config.fetchTimeoutTicks());
        if (response.snapshotNeeded()) {
            snapshots.startFetching(response.snapshotId());
            step.maybeSendFetch();
            return;
        }
        if (response.diverging()) {
            truncateToLeader(response);
        } else if (!response.entries().isEmpty()) {
            if (response.entries().get(0).offset() != node.log.endOffset()) {
                throw new IllegalStateException("node " + node.nodeId + ": fetched entries start at "
                        + response.entries().get(0).offset() + " but the log ends at " + node.log.endOffset());
            }
            node.log.append(wholeBatches(response.entries()));
        }
        if (!response.diverging()) {
            commits.leaderReported(response.highWatermark());
        }
        long knownCommitted = Math.min(response.highWatermark(), node.log.endOffset());
        if (!response.diverging() && knownCommitted > commits.highWatermark()) {
            commits.advanceTo(knownCommitted);
        }
        step.maybeSendFetch();
    }

    /**
     * The entries up to the last that ends its batch. A leader never sends part of a batch, but holding one would
     * let this member, once elected, commit that part; so a trailing part is dropped and fetched again.
     */
    private static List<LogEntry> wholeBatches(List<LogEntry> entries) {
        int end = entries.size();
        while (end > 0 && !entries.get(end - 1).endsBatch()) {
            end--;
        }
        return end == entries.size() ? entries : entries.subList(0, end);
    }

    /**
     * The leader's log has epoch {@code divergingEpoch} ending at {@code divergingEndOffset}; the logs cannot agree
     * past that, nor past where ours ends that epoch (or the last before it), so we cut ours there and fetch again
     * (if we hold no entry of that epoch, the next answer may cut further). That point may lie inside one of our
     * batches, when the leader's epoch is one we never saw: we cut at the start of that batch instead, since cutting
     * more is safe and a log must never end inside a batch. Committed entries always lie below the cut (the high
     * watermark lies between batches); nothing at or above it counts as durable any more.
     */
    private void truncateToLeader(FetchResponse response) {
        OffsetAndEpoch ours = node.log.endOffsetForEpoch(response.divergingEpoch());
        long truncateOffset = Math.min(response.divergingEndOffset(), ours.offset());
        if (truncateOffset < commits.highWatermark()) {
            throw new IllegalStateException("node " + node.nodeId + ": leader " + response.source()
                    + " asks to truncate to " + truncateOffset + " below the high watermark " + commits.highWatermark());
        }
        node.log.truncateTo(node.log.batchStartAtOrBelow(truncateOffset));
    }

    /**
     * The leader refuses connections: give up on it after a short grace instead of the full fetch timeout, then run
     * a pre-vote; a leader that is alive keeps its followers, since voters that still hear from it refuse the
     * pre-vote. A voter's grace follows its place after the leader ({@link SuccessorOrder}), so the first stands
     * almost at once and the voters that all lost the leader do not split the vote. An observer (it cannot stand)
     * starts looking for the new leader as soon as the first voter stands; voters still electing answer that they
     * know no leader, and it asks again soon.
     */
    void giveUpOnLeaderSoon(FetchSession session, int leaderId) {
        int electionTimeoutTicks = node.config.electionTimeoutTicks();
        int rank = node.config.isVoter() ? SuccessorOrder.rank(node.config.voterIds(), leaderId, node.nodeId) : 0;
        long graceTicks = SuccessorOrder.graceTicks(rank, electionTimeoutTicks, node.random);
        session.expireContactBy(node.now() + graceTicks);
    }
}
