/** Durable adapters for the Raft core: the quorum-state file and a file-backed Raft log. */
package io.kraft.raft.file;
