/**
 * The partition log: {@link io.kraft.storage.log.Log} over {@link io.kraft.storage.log.LogSegment}s
 * with sparse offset and time indexes, recovery, retention, the leader epoch cache, checkpoint files
 * and the per-directory {@link io.kraft.storage.log.LogManager}.
 */
package io.kraft.storage.log;
