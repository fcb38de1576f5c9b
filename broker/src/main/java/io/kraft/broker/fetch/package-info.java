/**
 * Everything about Fetch in one place. {@link io.kraft.broker.fetch.FetchHandler} answers consumers' and
 * followers' Fetch requests through the {@link io.kraft.broker.replica.ReplicaManager}'s reads
 * ({@link io.kraft.broker.fetch.PartitionRead}, file slices sent with zero copy); a fetch that must wait for
 * {@code min_bytes} waits as a {@link io.kraft.broker.fetch.DelayedFetch}. Incremental fetch sessions (KIP-227,
 * {@link io.kraft.broker.fetch.FetchSessionCache}) remember each session's partitions and what it last told about
 * them, so an incremental Fetch names only partitions whose position changed; the cache is bounded by
 * {@code max.incremental.fetch.session.cache.slots}. The follower's side of replication is in
 * {@link io.kraft.broker.fetch.follower}.
 */
package io.kraft.broker.fetch;
