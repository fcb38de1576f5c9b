/**
 * The broker's partitions: {@link io.kraft.broker.replica.ReplicaManager} turns metadata deltas into hosted
 * partitions (logs over {@code log.dirs}, leader or follower at the metadata's leader epoch) and serves the data
 * path. A {@link io.kraft.broker.replica.Partition}'s high watermark, as leader, is the smallest log end offset
 * over its in-sync replicas; consumers read below it. Requests that must wait (acks=all until replicated, fetches
 * until {@code min_bytes}) wait as {@link io.kraft.broker.replica.DelayedOperation}s in a purgatory keyed by
 * partition, re-checked when that partition changes and expired by a timer wheel: no thread waits. Retention,
 * compaction and checkpoints run on one maintenance thread.
 *
 * <p>Replication: followers pull from their leaders with Fetch ({@code fetch.follower} package) and truncate where they
 * diverged; leaders count followers' Fetch positions toward the high watermark and propose ISR expansions and
 * shrinks ({@link io.kraft.broker.replica.IsrChange}) to the controller through AlterPartition.
 */
package io.kraft.broker.replica;
