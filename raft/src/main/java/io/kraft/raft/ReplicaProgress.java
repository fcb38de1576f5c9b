package io.kraft.raft;

/** The leader's view of one fetching member: its acknowledged (durable) end offset and when it last fetched. */
public record ReplicaProgress(int replicaId, boolean voter, long endOffset, long lastFetchTick) {
}
