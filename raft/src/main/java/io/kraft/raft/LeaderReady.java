package io.kraft.raft;

/**
 * This node leads {@code epoch} and its leader-change record has committed, so every record of earlier epochs has
 * been handed to the state machine: it may now accept writes, the first of which lands at {@code nextOffset}.
 */
public record LeaderReady(int epoch, long nextOffset) {
}
