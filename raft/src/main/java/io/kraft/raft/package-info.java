/** Raft consensus library: election, replication, commit, snapshots, gRPC transport. */
package io.kraft.raft;
