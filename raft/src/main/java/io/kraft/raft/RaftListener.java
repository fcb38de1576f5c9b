package io.kraft.raft;

/** The replicated state machine: receives committed records in offset order and leadership changes. */
public interface RaftListener {

    /** Records up to {@link CommittedBatch#lastOffset()} are committed; called once per batch, in order. */
    void handleCommit(CommittedBatch batch);

    /** Leadership changed; the leader is absent while an election runs. */
    void handleLeaderChange(LeaderAndEpoch leaderAndEpoch);
}
