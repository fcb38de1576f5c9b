/**
 * Raft consensus for the metadata quorum, built as a deterministic state machine ({@link io.kraft.raft.RaftNode}).
 *
 * <p><b>Shape.</b> Like etcd's raft, the core does no I/O: a driver feeds it logical clock ticks, messages, log
 * flush completions and appends, and carries out the {@link io.kraft.raft.Ready} it hands back in a fixed order:
 * persist the {@link io.kraft.raft.QuorumState} (epoch, vote, leader), then send messages, then flush the log and
 * report the flush, then apply committed records. Randomness (election timeouts) comes only from the seeded
 * generator passed in, so a simulation replays a run exactly.
 *
 * <p><b>Roles.</b> {@link io.kraft.raft.Role} lists follower, prospective, candidate, leader and observer and every
 * legal transition between them; each role's bookkeeping is one small class, and all changes pass through one
 * gate that also asserts one leader and one vote per epoch. A voter whose leader falls silent first runs a
 * <em>pre-vote</em> (KIP-996) that does not touch its epoch, so a voter returning from a partition cannot depose a
 * healthy leader. Only a leader a voter has heard from itself counts when it refuses a pre-vote or names a leader
 * in a vote response; passing on hearsay let two voters keep each other loyal to a dead leader. A leader that has
 * not been fetched from by a majority within 1.5 fetch timeouts resigns (<em>check-quorum</em>), and a resigning
 * leader sends EndQuorumEpoch so the best-placed voter stands at once. A voter stuck in a newer epoch (its failed
 * candidacy went unseen) answers the BeginQuorumEpoch the leader resends to any voter silent for a fetch timeout
 * with that epoch, which moves everyone forward.
 *
 * <p><b>Replication is pull-based, as in Kafka's KRaft (KIP-595)</b>: followers and observers send Fetch with
 * their log end offset and the epoch of their last entry; the leader answers with entries, or with a diverging
 * epoch and that epoch's end offset, at which the fetcher truncates and fetches again. We chose pull because
 * (1) observers (brokers) follow the log with the very same request, so the leader needs no per-member push
 * state; (2) the fetch offset doubles as the acknowledgement, and a member only fetches past entries it has
 * flushed, which makes "acknowledge only durable entries" a local rule; (3) the leader learns liveness for
 * check-quorum from the same traffic; and (4) it matches the Kafka fetch path brokers already use. Idle fetches
 * are held by the leader (long poll) until data or a new high watermark arrives, or the maximum wait passes.
 *
 * <p><b>Commit.</b> A leader opens its epoch with a leader-change record. The high watermark (exclusive) is the
 * largest offset a majority of voters has durably reached, counting the leader's own flushed end; it moves only
 * forward and only onto an entry of the current epoch (Raft §5.4.2). {@link io.kraft.raft.RaftNode#append}
 * futures complete when the high watermark passes their last record and fail with
 * {@link io.kraft.raft.NotLeaderException} if leadership is lost first.
 *
 * <p><b>Snapshots.</b> The state machine writes a snapshot of what it applied into a {@link io.kraft.raft.SnapshotStore}
 * (for metadata, a RocksDB checkpoint directory in {@link io.kraft.raft.file.FileSnapshotStore}, whose manifest
 * lists every file's size and CRC32C) and reports its {@link io.kraft.raft.SnapshotId} (end offset and epoch) with
 * {@link io.kraft.raft.RaftNode#snapshotCreated}. The driver then asks its {@link io.kraft.raft.LogRetentionPolicy}
 * ({@code metadata.max.retention.bytes}/{@code .ms}) whether to delete the log prefix the snapshot covers; the log
 * records its new start durably before any segment goes. As in KRaft, a fetch below the leader's log start (or
 * diverging below it) is answered with the snapshot to fetch; the fetcher pulls it in chunks, each carrying its
 * position and CRC32C, resumes from the bytes it already stored after any failure, drops a corrupt chunk (or a
 * whole that fails its manifest) and asks again, and installs it atomically; its log then starts at the snapshot's
 * end and the state machine is told to load it ({@link io.kraft.raft.Ready#loadSnapshot()}). A restarting node
 * loads its latest snapshot first and replays the log after it.
 *
 * <p><b>Dead leaders.</b> The fetch timeout covers a leader that is silent or slow. When the transport sees the
 * leader's connection refused or dropped (the process died), the driver reports
 * {@link io.kraft.raft.RaftNode#peerUnreachable}; the follower then stops vouching for that leader and runs a
 * pre-vote after a short randomized grace, so a killed leader is replaced in a few hundred milliseconds with
 * default timeouts while a leader that is merely slow keeps its followers.
 *
 * <p><b>Adapters.</b> {@link io.kraft.raft.RaftDriver} runs a node on one thread with real time; durable storage is
 * in {@code io.kraft.raft.file} (quorum-state file, segmented CRC-checked log) and the network in
 * {@code io.kraft.raft.grpc}. The simulation in the tests drives the same core with a seeded scheduler.
 */
package io.kraft.raft;
