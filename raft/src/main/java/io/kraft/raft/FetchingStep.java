package io.kraft.raft;

import io.kraft.raft.RaftMessage.FetchResponse;
import io.kraft.raft.RaftMessage.FetchSnapshotResponse;
import java.util.OptionalInt;

/** What followers and observers share: both pull the log (and snapshots) from the leader with one fetch session. */
abstract class FetchingStep extends RoleStep {

    FetchingStep(NodeParts parts) {
        super(parts);
    }

    abstract FetchSession fetchSession();

    /** Whom the next fetch goes to: the leader, or (an observer looking for one) some voter; empty for nobody. */
    abstract OptionalInt fetchTarget();

    /** A voter named {@code leaderId} as leader of this node's epoch. */
    abstract void adoptLeader(int leaderId);

    /** The leader said it no longer leads. */
    abstract void loseLeader();

    /** A member that is not this node's leader answered a fetch (a voter probed while looking for the leader). */
    void answeredByNonLeader() {
    }

    /** Give up on leader {@code leaderId} after a short grace (it refuses connections) unless it answers first. */
    void giveUpOnLeaderSoon(int leaderId) {
        parts.following().giveUpOnLeaderSoon(fetchSession(), leaderId);
    }

    @Override
    void maybeSendFetch() {
        parts.following().maybeSendFetch(state(), fetchSession(), fetchTarget());
    }

    @Override
    public void onFetchResponse(FetchResponse message) {
        parts.following().onFetchResponse(this, message);
    }

    @Override
    public void onFetchSnapshotResponse(FetchSnapshotResponse message) {
        parts.snapshots().onChunk(this, message);
    }
}
