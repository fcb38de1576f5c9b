package io.kraft.raft;

/**
 * The leader's view of one fetching member: its acknowledged (durable) end offset, when it last fetched, and when
 * it last had every entry the leader had ({@code lastCaughtUpTick}, -1 if never: KIP-836's caught-up time).
 */
public record ReplicaProgress(int replicaId, boolean voter, long endOffset, long lastFetchTick,
                              long lastCaughtUpTick) {
}
