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
 * <p><b>Adapters.</b> {@link io.kraft.raft.RaftDriver} runs a node on one thread with real time; durable storage is
 * in {@code io.kraft.raft.file} (quorum-state file, segmented CRC-checked log) and the network in
 * {@code io.kraft.raft.grpc}. The simulation in the tests drives the same core with a seeded scheduler.
 */
package io.kraft.raft;
