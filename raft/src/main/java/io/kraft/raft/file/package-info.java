/**
 * Durable adapters for the Raft core: the quorum-state file, a file-backed Raft log and snapshot store, and
 * read-only views of them ({@link io.kraft.raft.file.FileRaftLogReader}, {@link io.kraft.raft.file.SnapshotCatalog})
 * for offline tools on a stopped node.
 */
package io.kraft.raft.file;
