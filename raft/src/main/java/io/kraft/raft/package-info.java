/**
 * Raft consensus for the metadata quorum, built as a deterministic state machine ({@link io.kraft.raft.RaftNode}).
 *
 * <p><b>Shape.</b> Like etcd's raft, the core does no I/O and writes nothing: a driver feeds it logical clock ticks,
 * messages, appends and disk completions (a log flush, a snapshot install), and carries out the
 * {@link io.kraft.raft.Ready} it hands back in a fixed order: persist the {@link io.kraft.raft.QuorumState} (epoch,
 * vote, leader); write snapshot chunks and install a complete snapshot, reporting the outcome; write the log (prefix
 * deletion, truncation, appends); send messages; flush the log and report the flush; hand the state machine what it
 * should load and apply. The core reads the driver's log and snapshots only through read-only views
 * ({@link io.kraft.raft.ReadableRaftLog}, {@link io.kraft.raft.ReadableSnapshotStore}) and keeps every entry no flush
 * report has covered in memory, so a driver may apply log writes late (as the simulation does on some members).
 * Randomness (election timeouts) comes only from the seeded generator passed in, so a simulation replays a run
 * exactly. {@link io.kraft.raft.RaftDriver} is the production driver: one thread, real time, files, gRPC.
 *
 * <p><b>Who decides what.</b> {@link io.kraft.raft.RaftNode} is the façade and the one place roles change: its
 * {@code transitionTo} gate checks each change against {@link io.kraft.raft.Role}'s legal transitions and asserts one
 * leader and one vote per epoch, and swaps in the new role's <em>step</em> (etcd's per-role step function):
 * {@code FollowerStep}, {@code ObserverStep}, {@code ProspectiveStep}, {@code CandidateStep}, {@code LeaderStep}, each
 * holding its role's bookkeeping ({@code FollowerState} and so on) and receiving messages through
 * {@link io.kraft.raft.RaftMessage.Handler}. A step only routes; the decisions live in one part each:
 * <ul>
 *   <li>{@code EpochGate}: which messages prove a newer epoch (and name its leader), entered before they are
 *       handled;</li>
 *   <li>{@code Election}: pre-votes (KIP-996) and votes, leader announcements (BeginQuorumEpoch) and resignations
 *       (EndQuorumEpoch, best-placed successor first);</li>
 *   <li>{@code LeaderReplication}: opening an epoch with a leader-change record, appends, serving and holding
 *       fetches, the high watermark from what a majority has flushed, check-quorum, resigning;</li>
 *   <li>{@code FollowerReplication}: fetching from a durable log end only, appending, truncating where the leader
 *       says the logs diverge, learning the high watermark, giving up soon on a leader that refuses connections;</li>
 *   <li>{@code SnapshotTransfer}: the latest snapshot, prefix deletion, serving snapshots in checksummed chunks,
 *       fetching one (checking each chunk), having it installed and resuming after failures;</li>
 *   <li>{@code ObserverDiscovery}: how an observer without a leader probes voters to find one;</li>
 *   <li>{@code CommitTracker}: the high watermark and what waits on it (append futures, committed batches);</li>
 *   <li>{@code LogView}: the log as the core sees it, reading and cutting it only between batches, and folding its
 *       writes into each Ready's {@link io.kraft.raft.Ready.LogWrites}.</li>
 * </ul>
 *
 * <p><b>Roles and elections.</b> A voter whose leader falls silent first runs a <em>pre-vote</em> that does not touch
 * its epoch, so a voter returning from a partition cannot depose a healthy leader. Only a leader a voter has heard
 * from itself counts when it refuses a pre-vote or names a leader in a vote response; passing on hearsay let two
 * voters keep each other loyal to a dead leader. A leader that has not been fetched from by a majority within 1.5
 * fetch timeouts resigns (<em>check-quorum</em>), and a resigning leader sends EndQuorumEpoch so the best-placed voter
 * stands at once. A voter stuck in a newer epoch (its failed candidacy went unseen) answers the BeginQuorumEpoch the
 * leader resends to any voter silent for a fetch timeout with that epoch, which moves everyone forward.
 *
 * <p><b>Replication is pull-based, as in Kafka's KRaft (KIP-595)</b>: followers and observers send Fetch with
 * their log end offset and the epoch of their last entry; the leader answers with entries, or with a diverging
 * epoch and that epoch's end offset, at which the fetcher truncates and fetches again. We chose pull because
 * (1) observers (brokers) follow the log with the very same request, so the leader needs no per-member push
 * state; (2) the fetch offset doubles as the acknowledgement, and a member only fetches past entries a flush report
 * covered, which makes "acknowledge only durable entries" a local rule; (3) the leader learns liveness for
 * check-quorum from the same traffic; and (4) it matches the Kafka fetch path brokers already use. Idle fetches
 * are held by the leader (long poll) until data or a new high watermark arrives, or the maximum wait passes.
 *
 * <p><b>Commit.</b> A leader opens its epoch with a leader-change record. The high watermark (exclusive) is the
 * largest offset a majority of voters has durably reached, counting the leader's own flushed end; it moves only
 * forward and only onto an entry of the current epoch (Raft §5.4.2). {@link io.kraft.raft.RaftNode#append}
 * futures complete when the high watermark passes their last record and fail with
 * {@link io.kraft.raft.NotLeaderException} if leadership is lost first. Once the leader-change record commits, the
 * leader announces itself ready ({@link io.kraft.raft.LeaderReady}), once per epoch.
 *
 * <p><b>Batches.</b> The records of one {@link io.kraft.raft.RaftNode#append} are one <em>batch</em>, which commits
 * whole or not at all (a controller writes a topic and all its partitions in one). The log marks where batches end:
 * every entry of a batch but its last is {@link io.kraft.raft.LogEntry.EntryType#DATA_CONTINUED}, the last is
 * {@code DATA}, and a leader-change record is a batch of its own; the mark is stored on disk and sent on the wire,
 * and a log written before marks existed reads as batches of one entry. A leader answers a fetch with whole batches
 * only (as many as fit the entry limit, or the first one whole however long, as Kafka sends an oversized first
 * batch), and a fetcher appends whole batches only. So every log holds whole batches, and everything that points
 * into a log lies between two: its end, and so every acknowledgement and what an election compares; every epoch's
 * end; the high watermark; truncation points (a fetcher whose cut would fall inside one of its batches, when the
 * leader names an epoch it never saw, cuts at that batch's start); snapshot ends. {@code LogView} asserts it. A crash
 * may tear the batch being written at the end of a log: {@link io.kraft.raft.file.FileRaftLog} cuts it off on open,
 * and a {@code RaftNode} drops it at startup from any log. Nobody had acknowledged any of it, since members
 * acknowledge flushed whole batches only, so dropping it loses nothing committed. Without the marks a fetch could
 * end inside a batch, the follower holding that part could be elected, and its leader-change record would commit
 * the part. {@code CommitTracker} hands each append to the state machine within one
 * {@link io.kraft.raft.CommittedBatch}.
 *
 * <p><b>Snapshots.</b> The state machine writes a snapshot of what it applied into a {@link io.kraft.raft.SnapshotStore}
 * (for metadata, a RocksDB checkpoint directory in {@link io.kraft.raft.file.FileSnapshotStore}, whose manifest
 * lists every file's size and CRC32C) and reports its {@link io.kraft.raft.SnapshotId} (end offset and epoch) with
 * {@link io.kraft.raft.RaftNode#snapshotCreated}. The driver then asks its {@link io.kraft.raft.LogRetentionPolicy}
 * ({@code metadata.max.retention.bytes}/{@code .ms}) whether to delete the log prefix the snapshot covers; the log
 * records its new start durably before any segment goes. As in KRaft, a fetch below the leader's log start (or
 * diverging below it) is answered with the snapshot to fetch; the fetcher pulls it in chunks, each carrying its
 * position and CRC32C, drops a corrupt chunk and asks again, and hands the verified chunks to its driver, which
 * appends them to the incoming snapshot (a transfer resumes from what was stored after any failure) and finally
 * installs it atomically. The driver reports the install; a snapshot failing its whole check (its manifest) is
 * fetched again from the start, otherwise the log now starts at the snapshot's end and the state machine is told to
 * load it ({@link io.kraft.raft.Ready#loadSnapshot()}). A restarting node loads its latest snapshot first and replays
 * the log after it.
 *
 * <p><b>Dead leaders.</b> The fetch timeout covers a leader that is silent or slow. When the transport sees the
 * leader's connection refused or dropped (the process died), the driver reports
 * {@link io.kraft.raft.RaftNode#peerUnreachable}; the follower then stops vouching for that leader and runs a
 * pre-vote after a short randomized grace, so a killed leader is replaced in a few hundred milliseconds with
 * default timeouts while a leader that is merely slow keeps its followers.
 *
 * <p><b>Voter changes (KIP-853).</b> The voters are state derived from the log ({@code VoterHistory}): a
 * bootstrap set ({@code controller.quorum.voters}, kraft.version 0, which never changes; or the set {@code format}
 * wrote, kraft.version 1), then every {@link io.kraft.raft.LogEntry.EntryType#VOTERS} record, a batch of its own in
 * our {@link io.kraft.raft.VoterSet} encoding. A node uses the latest set in its log, committed or not; a truncation
 * rolls it back. Elections, vote tallies, the high watermark and check-quorum count the set in force, so a leader
 * counts a new voter's acknowledgements from the moment it appends the record. {@code VoterChanges} decides the
 * changes: on the leader only, one voter at a time (majorities of two sets one voter apart always meet), only after
 * the leader committed a record of its own epoch and while no earlier change is uncommitted, and adding only a
 * replica that has caught up as an observer; errors are Kafka's ({@link io.kraft.raft.VoterChangeException}). It
 * also moves roles with the set: an added observer becomes a follower, a removed voter an observer, and a removed
 * leader keeps leading (without counting itself) until its removal commits, then resigns. A voter is an id and a
 * log directory: Vote requests carry the directory the candidate's set names (the voter key), so a node whose disk
 * was wiped and reformatted refuses to vote as the old voter, and a node the candidate's set names votes even
 * before its own log has caught up with that set; a voter may likewise be asked by a candidate its own set does not
 * know yet, and follows the leader it voted for. The log always holds the set: a member deletes a log prefix only
 * while a voters record remains after it, and a leader restates the set when a snapshot covers its latest
 * statement; a member that installs a fetched snapshot and finds no record after it observes until the leader's
 * next statement arrives.
 *
 * <p><b>Adapters and settings.</b> Durable storage is in {@code io.kraft.raft.file} (quorum-state file, segmented
 * CRC-checked log, snapshot directories) and the network in {@code io.kraft.raft.grpc}.
 * {@link io.kraft.raft.QuorumConfig} and {@link io.kraft.raft.file.MetadataLogRetention} declare their Kafka-named
 * settings with the config module's {@code ConfigDef}. The simulation in the tests drives the same core with a
 * seeded scheduler, a faulty network and a disk that loses what was not durable.
 */
package io.kraft.raft;
