package io.kraft.metadata.sim;

import io.kraft.metadata.loader.MetadataStorage.LoadedSnapshot;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.LeaderReady;
import io.kraft.raft.NotLeaderException;
import io.kraft.raft.QuorumDescription;
import io.kraft.raft.RaftClient;
import io.kraft.raft.RaftListener;
import io.kraft.raft.SnapshotId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * A model of the Raft quorum behind {@link RaftClient}, for simulating controllers: one shared log whose committed
 * prefix every member receives in order, with the contract the controller relies on and nothing more. Elections give
 * increasing epochs; a leader's appends are fenced by its epoch; a new leader keeps only some prefix of the old
 * leader's uncommitted appends (the rest is lost) and writes its leader-change record, and once that commits the
 * leader hears {@link RaftListener#handleLeaderReady} after every earlier record. Commits arrive in runs that may end
 * inside an append batch, but a failover never cuts a batch: it is kept or lost whole, as {@link RaftClient#append}
 * promises "one batch". A member's listener calls travel one ordered channel with network delays; members crash
 * (losing everything but their snapshots), restart, and are isolated from the quorum. A snapshot the leader reports
 * may let the log prefix go, so lagging members then get a snapshot transfer.
 *
 * <p>Simplifications: isolation is all or nothing per member; the commit point is global (a member that is not
 * isolated learns it); any member's snapshot may be transferred.
 */
final class SimRaft {
    /** The majority of voters must be reachable this long before a lost leader is replaced, at least. */
    static final long MIN_ELECTION_TIMEOUT_MS = 150;
    static final long MAX_ELECTION_TIMEOUT_MS = 400;
    private static final long TICK_MS = 25;

    /** A log entry; {@code batchLast} is the offset of the last entry appended with it (its own for control). */
    private record Entry(long offset, int epoch, byte[] data, long batchLast) {
        boolean isControl() {
            return data == null;
        }
    }

    private record PendingAppend(long lastOffset, int epoch, Member member, CompletableFuture<Long> future) {
    }

    /** One voter as the quorum sees it. */
    final class Member {
        final int id;
        final SimStorage.SnapshotDisk disk = new SimStorage.SnapshotDisk();
        final RaftClient client = new Client(this);
        private RaftListener listener;
        private SimEventLoop channel;
        private boolean up;
        private boolean isolated;
        /** Every offset below was handed to the listener or covered by a snapshot it loaded. */
        private long deliveredEnd;
        private int knownEpoch;
        private int knownLeader = -1;
        private final List<CompletableFuture<Long>> staleAppends = new ArrayList<>();

        Member(int id) {
            this.id = id;
        }

        boolean isUp() {
            return up;
        }

        boolean isIsolated() {
            return isolated;
        }

        private void send(String what, Runnable call) {
            channel.execute(what, call);
        }

        private void learnEpoch() {
            knownEpoch = epoch;
            knownLeader = leaderId;
            LeaderAndEpoch announced = new LeaderAndEpoch(leaderId < 0 ? OptionalInt.empty()
                    : OptionalInt.of(leaderId), epoch);
            RaftListener target = listener;
            send("leader change " + announced, () -> target.handleLeaderChange(announced));
            for (CompletableFuture<Long> stale : staleAppends) {
                failLater(stale, this);
            }
            staleAppends.clear();
        }
    }

    /** The {@link RaftClient} a member's controller talks to. */
    private final class Client implements RaftClient {
        private final Member member;

        Client(Member member) {
            this.member = member;
        }

        @Override
        public int nodeId() {
            return member.id;
        }

        @Override
        public CompletableFuture<Long> append(int appendEpoch, List<byte[]> records) {
            return SimRaft.this.append(member, appendEpoch, records);
        }

        @Override
        public CompletableFuture<Void> resign(int resignEpoch) {
            SimRaft.this.resign(member, resignEpoch);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> snapshotCreated(SnapshotId id) {
            SimRaft.this.snapshotCreated(member, id);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<QuorumDescription> describe() {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("not simulated"));
        }
    }

    private final SimScheduler scheduler;
    private final CommittedLog committedLog;
    private final Map<Integer, Member> members = new TreeMap<>();
    private final List<Entry> log = new ArrayList<>();
    private final List<PendingAppend> pendingAppends = new ArrayList<>();
    private long logStartOffset;
    private long highWatermark = -1;
    private int epoch;
    private int leaderId = -1;
    private long leaderChangeOffset = -1;
    private boolean readySent;
    private boolean replicationScheduled;
    private long leaderLostSinceMs = -1;
    private long electionTimeoutMs;
    /** Upper bound of a message's delay; raised while the network is clogged. */
    private long maxNetworkDelayMs = 5;
    private int elections;
    private int snapshotTransfers;
    private int snapshotLoads;

    SimRaft(SimScheduler scheduler, Collection<Integer> voterIds, CommittedLog committedLog) {
        this.scheduler = scheduler;
        this.committedLog = committedLog;
        for (int id : voterIds) {
            members.put(id, new Member(id));
        }
        scheduler.after(TICK_MS, "raft tick", this::tick);
    }

    Member member(int id) {
        return members.get(id);
    }

    int epoch() {
        return epoch;
    }

    /** The current leader, or -1 during an election. */
    int leaderId() {
        return leaderId;
    }

    long highWatermark() {
        return highWatermark;
    }

    long logStartOffset() {
        return logStartOffset;
    }

    int elections() {
        return elections;
    }

    int snapshotTransfers() {
        return snapshotTransfers;
    }

    /** Snapshots handed to listeners: at restarts and by transfers. */
    int snapshotLoads() {
        return snapshotLoads;
    }

    void clog(boolean clogged) {
        maxNetworkDelayMs = clogged ? 80 : 5;
    }

    // ---- members come and go --------------------------------------------------------------------------------

    /** Starts a member's Raft with {@code listener}: it loads its latest snapshot, learns the leader, catches up. */
    void start(int id, RaftListener listener) {
        Member member = members.get(id);
        member.up = true;
        member.listener = listener;
        member.channel = new SimEventLoop("raft-" + id, scheduler, () -> maxNetworkDelayMs);
        member.deliveredEnd = 0;
        member.knownEpoch = 0;
        member.knownLeader = -1;
        member.disk.latest().ifPresent(snapshot -> {
            snapshotLoads++;
            member.send("load snapshot " + snapshot, () -> listener.handleLoadSnapshot(snapshot));
            member.deliveredEnd = snapshot.endOffset();
        });
        if (!member.isolated && epoch > 0) {
            member.learnEpoch();
        }
        kick(member);
    }

    /** The member's process dies: its listener calls in flight are lost; its snapshots stay on disk. */
    void crash(int id) {
        Member member = members.get(id);
        member.up = false;
        member.channel.crash();
        member.listener = null;
        member.staleAppends.clear();
        pendingAppends.removeIf(pending -> pending.member() == member);
        if (leaderId == id) {
            // Leadership dies with the process (a restart begins as a follower); the others notice by timing out.
            leaderId = -1;
        }
    }

    void isolate(int id) {
        members.get(id).isolated = true;
    }

    void heal(int id) {
        Member member = members.get(id);
        if (!member.isolated) {
            return;
        }
        member.isolated = false;
        if (member.up && (member.knownEpoch != epoch || member.knownLeader != leaderId)) {
            member.learnEpoch();
        }
        kick(member);
        scheduleReplication();
    }

    private int majority() {
        return members.size() / 2 + 1;
    }

    private List<Member> reachable() {
        return members.values().stream().filter(m -> m.up && !m.isolated).toList();
    }

    private boolean canLead(int id) {
        Member member = members.get(id);
        return member.up && !member.isolated && reachable().size() >= majority();
    }

    // ---- elections -------------------------------------------------------------------------------------------

    private void tick() {
        if (leaderId >= 0 && canLead(leaderId)) {
            leaderLostSinceMs = -1;
            // Replication stalls while no majority is reachable; it resumes once one is again (a restart, a heal).
            scheduleReplication();
        } else if (leaderLostSinceMs < 0) {
            leaderLostSinceMs = scheduler.nowMs();
            electionTimeoutMs = scheduler.delayMs(MIN_ELECTION_TIMEOUT_MS, MAX_ELECTION_TIMEOUT_MS);
        } else if (scheduler.nowMs() - leaderLostSinceMs >= electionTimeoutMs) {
            elect();
        }
        scheduler.after(TICK_MS, "raft tick", this::tick);
    }

    private void elect() {
        List<Member> candidates = reachable();
        if (candidates.size() < majority()) {
            return;
        }
        Member winner = candidates.get(scheduler.random().nextInt(candidates.size()));
        // The winner holds some prefix of the uncommitted tail (what reached it), in whole batches; the rest is lost.
        // The batch holding the commit point survives whole: part of it is committed.
        long keepAtLeast = highWatermark < 0 ? 0 : log.get((int) highWatermark).batchLast() + 1;
        List<Long> ends = new ArrayList<>(List.of(keepAtLeast));
        for (long offset = keepAtLeast; offset < log.size(); offset++) {
            if (log.get((int) offset).batchLast() == offset) {
                ends.add(offset + 1);
            }
        }
        long keptEnd = ends.get(scheduler.random().nextInt(ends.size()));
        log.subList((int) keptEnd, log.size()).clear();
        for (PendingAppend pending : pendingAppends) {
            pending.member().staleAppends.add(pending.future());
        }
        pendingAppends.clear();
        epoch++;
        leaderId = winner.id;
        leaderChangeOffset = log.size();
        log.add(new Entry(leaderChangeOffset, epoch, null, leaderChangeOffset));
        readySent = false;
        leaderLostSinceMs = -1;
        elections++;
        for (Member member : candidates) {
            member.learnEpoch();
        }
        scheduleReplication();
    }

    private void resign(Member member, int resignEpoch) {
        if (leaderId != member.id || epoch != resignEpoch) {
            return;
        }
        leaderId = -1;
        for (PendingAppend pending : pendingAppends) {
            failLater(pending.future(), member);
        }
        pendingAppends.clear();
        for (Member other : reachable()) {
            other.learnEpoch();
        }
        if (member.isolated) {
            member.knownLeader = -1;
        }
    }

    // ---- appends and commits ---------------------------------------------------------------------------------

    private CompletableFuture<Long> append(Member member, int appendEpoch, List<byte[]> records) {
        CompletableFuture<Long> future = new CompletableFuture<>();
        if (!member.up || member.knownLeader != member.id || member.knownEpoch != appendEpoch) {
            failLater(future, member);
        } else if (leaderId == member.id && epoch == appendEpoch) {
            long batchLast = log.size() + records.size() - 1;
            for (byte[] record : records) {
                log.add(new Entry(log.size(), epoch, record, batchLast));
            }
            pendingAppends.add(new PendingAppend(log.size() - 1, epoch, member, future));
            scheduleReplication();
        } else {
            // It still believes it leads, but the quorum moved on: the append fails once it learns.
            member.staleAppends.add(future);
        }
        return future;
    }

    private void failLater(CompletableFuture<Long> future, Member member) {
        NotLeaderException notLeader = new NotLeaderException(member.id, epoch,
                leaderId < 0 ? OptionalInt.empty() : OptionalInt.of(leaderId));
        scheduler.after(scheduler.delayMs(0, maxNetworkDelayMs), "append fails on " + member.id,
                () -> future.completeExceptionally(notLeader));
    }

    private void scheduleReplication() {
        if (replicationScheduled || log.size() - 1 <= highWatermark) {
            return;
        }
        replicationScheduled = true;
        scheduler.after(scheduler.delayMs(1, 3 * maxNetworkDelayMs), "replicate", this::replicate);
    }

    /** The leader reaches a majority with what it has appended, or with a part of it. */
    private void replicate() {
        replicationScheduled = false;
        if (leaderId < 0 || !canLead(leaderId)) {
            return; // stalls until an election or a heal
        }
        long end = log.size() - 1;
        if (end <= highWatermark) {
            return;
        }
        long newHighWatermark = scheduler.random().nextInt(3) == 0
                ? highWatermark + 1 + scheduler.random().nextInt((int) (end - highWatermark)) : end;
        // Earlier epochs' records commit only together with the leader's own leader-change record.
        newHighWatermark = Math.max(newHighWatermark, leaderChangeOffset);
        advanceHighWatermark(newHighWatermark);
        scheduleReplication();
    }

    private void advanceHighWatermark(long newHighWatermark) {
        long from = highWatermark + 1;
        highWatermark = newHighWatermark;
        // The oracle takes each run of one epoch, cut at batch ends so it can check state between batches.
        List<byte[]> run = new ArrayList<>();
        long runStart = from;
        int runEpoch = -1;
        for (long offset = from; offset <= newHighWatermark; offset++) {
            Entry entry = log.get((int) offset);
            if (entry.isControl()) {
                continue;
            }
            if (run.isEmpty()) {
                runStart = offset;
                runEpoch = entry.epoch();
            }
            run.add(entry.data());
            if (entry.batchLast() == offset || offset == newHighWatermark) {
                committedLog.commit(run, runStart, runEpoch, entry.batchLast() == offset);
                run = new ArrayList<>();
            }
        }
        for (PendingAppend pending : List.copyOf(pendingAppends)) {
            if (pending.lastOffset() <= highWatermark) {
                pendingAppends.remove(pending);
                long lastOffset = pending.lastOffset();
                scheduler.after(scheduler.delayMs(0, maxNetworkDelayMs), "append committed at " + lastOffset,
                        () -> pending.future().complete(lastOffset));
            }
        }
        for (Member member : members.values()) {
            kick(member);
        }
    }

    /** Hands a member everything committed that it has not had, in runs of one epoch, then the leader-ready call. */
    private void kick(Member member) {
        if (!member.up || member.isolated) {
            return;
        }
        while (member.deliveredEnd <= highWatermark) {
            if (member.deliveredEnd < logStartOffset) {
                transferSnapshot(member);
                continue;
            }
            Entry first = log.get((int) member.deliveredEnd);
            if (first.isControl()) {
                member.deliveredEnd++;
                continue;
            }
            int maxRecords = 1 + scheduler.random().nextInt(12);
            List<byte[]> records = new ArrayList<>();
            long offset = member.deliveredEnd;
            while (offset <= highWatermark && records.size() < maxRecords) {
                Entry entry = log.get((int) offset);
                if (entry.isControl() || entry.epoch() != first.epoch()) {
                    break;
                }
                records.add(entry.data());
                offset++;
            }
            CommittedBatch batch = new CommittedBatch(member.deliveredEnd, first.epoch(), records);
            member.deliveredEnd = offset;
            RaftListener target = member.listener;
            member.send("commit " + batch.baseOffset() + ".." + batch.lastOffset(), () -> target.handleCommit(batch));
        }
        maybeReady();
    }

    private void transferSnapshot(Member member) {
        Member leader = leaderId >= 0 ? members.get(leaderId) : null;
        Optional<Map.Entry<SnapshotId, LoadedSnapshot>> snapshot = leader == null ? Optional.empty()
                : leader.disk.covering(logStartOffset, highWatermark + 1);
        for (Member other : members.values()) {
            if (snapshot.isEmpty()) {
                snapshot = other.disk.covering(logStartOffset, highWatermark + 1);
            }
        }
        SnapshotId id = snapshot.orElseThrow(() -> new IllegalStateException("the log starts at " + logStartOffset
                + " but no member has a snapshot covering it")).getKey();
        member.disk.put(id, snapshot.get().getValue());
        member.deliveredEnd = id.endOffset();
        snapshotTransfers++;
        snapshotLoads++;
        RaftListener target = member.listener;
        member.send("install snapshot " + id, () -> target.handleLoadSnapshot(id));
    }

    private void maybeReady() {
        if (leaderId < 0 || readySent || highWatermark < leaderChangeOffset) {
            return;
        }
        Member leader = members.get(leaderId);
        if (leader.up && !leader.isolated && leader.deliveredEnd > leaderChangeOffset) {
            readySent = true;
            LeaderReady ready = new LeaderReady(epoch, leaderChangeOffset + 1);
            RaftListener target = leader.listener;
            leader.send("leader ready " + ready.epoch(), () -> target.handleLeaderReady(ready));
        }
    }

    private void snapshotCreated(Member member, SnapshotId id) {
        // The leader's snapshots may let the prefix go, so that lagging members need a snapshot transfer.
        if (member.id == leaderId && scheduler.random().nextBoolean()) {
            logStartOffset = Math.max(logStartOffset, Math.min(id.endOffset(), highWatermark + 1));
        }
    }

    /** One line for failure reports. */
    String describe() {
        StringBuilder text = new StringBuilder("raft epoch " + epoch + " leader " + leaderId + " hw " + highWatermark
                + " log " + logStartOffset + ".." + (log.size() - 1) + " members");
        for (Member member : members.values()) {
            text.append(' ').append(member.id).append(member.up ? "" : "(down)")
                    .append(member.isolated ? "(isolated)" : "").append("@").append(member.deliveredEnd)
                    .append("/e").append(member.knownEpoch);
        }
        return text.toString();
    }
}
