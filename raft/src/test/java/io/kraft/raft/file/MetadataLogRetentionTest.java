package io.kraft.raft.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.awaitility.Awaitility.await;

import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.LogEntry;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.RaftListener;
import io.kraft.raft.SilentTransport;
import io.kraft.raft.SnapshotId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The prefix a snapshot covers goes only once the log is over the size limit or its oldest segment too old, and then
 * it really goes: the driver deletes its segment files, and the log starts at the snapshot after a restart.
 */
class MetadataLogRetentionTest {
    private static final SnapshotId SNAPSHOT = new SnapshotId(10, 1);

    @TempDir
    Path dir;

    private static FileRaftLog logOf(Path dir, int entries) {
        FileRaftLog log = FileRaftLog.open(dir, 1024 * 1024);
        List<LogEntry> list = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            list.add(LogEntry.data(i, 1, new byte[100]));
        }
        log.append(list);
        log.flush();
        return log;
    }

    @Test
    void deletesOnlyWhenTheLogIsTooLargeOrTooOld() {
        try (FileRaftLog log = logOf(dir, 20)) {
            long size = log.sizeBytes();
            AtomicLong nowMs = new AtomicLong(log.oldestSegmentModifiedMs());
            assertFalse(new MetadataLogRetention(log, size, 60_000, nowMs::get).deletePrefixUpTo(SNAPSHOT));
            assertTrue(new MetadataLogRetention(log, size - 1, 60_000, nowMs::get).deletePrefixUpTo(SNAPSHOT));
            MetadataLogRetention byAge = new MetadataLogRetention(log, -1, 60_000, nowMs::get);
            assertFalse(byAge.deletePrefixUpTo(SNAPSHOT));
            nowMs.addAndGet(60_001);
            assertTrue(byAge.deletePrefixUpTo(SNAPSHOT));
        }
    }

    @Test
    void readsKafkasSettingNamesWithTheirDefaults() {
        try (FileRaftLog log = logOf(dir, 1)) {
            assertFalse(MetadataLogRetention.from(log, Map.of()).deletePrefixUpTo(SNAPSHOT),
                    "100 MiB and 7 days by default");
            assertTrue(MetadataLogRetention.from(log, Map.of(MetadataLogRetention.MAX_RETENTION_BYTES, "0"))
                    .deletePrefixUpTo(SNAPSHOT));
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> MetadataLogRetention.from(log, Map.of(MetadataLogRetention.MAX_RETENTION_MS, "week")));
            assertEquals("Invalid value week for configuration metadata.max.retention.ms: expected a long",
                    error.getMessage());
        }
    }

    @Test
    void aSnapshotCreatedThroughTheDriverDeletesTheSegmentsItCoversOnceTheLogOutgrowsTheLimit() throws Exception {
        Path logDir = dir.resolve("log");
        FileRaftLog log = FileRaftLog.open(logDir, 4096);
        FileSnapshotStore snapshots = FileSnapshotStore.open(logDir);
        CommitRecorder commits = new CommitRecorder();
        QuorumConfig quorum = QuorumConfig.from(Map.of(QuorumConfig.VOTERS, "1@localhost:1",
                QuorumConfig.ELECTION_TIMEOUT_MS, "50"));
        long limit = 32 * 1024;
        try (RaftDriver driver = new RaftDriver(quorum.raftConfig(1, 10, 100), 10, log, snapshots,
                MetadataLogRetention.from(log, Map.of(MetadataLogRetention.MAX_RETENTION_BYTES, Long.toString(limit))),
                new FileQuorumStateStore(logDir), new SilentTransport(), commits, 1)) {
            driver.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> commits.leaderEpoch != 0);
            appendAndAwaitCommit(driver, commits, 20);
            SnapshotId small = commits.snapshot(snapshots);
            driver.snapshotCreated(small).get(30, TimeUnit.SECONDS);
            assertEquals(0, log.startOffset(), "under the limit the log keeps its prefix");

            appendAndAwaitCommit(driver, commits, 200);
            int segments = log.segmentCount();
            assertTrue(log.sizeBytes() > limit, "the log outgrew the limit: " + log.sizeBytes());
            SnapshotId large = commits.snapshot(snapshots);
            driver.snapshotCreated(large).get(30, TimeUnit.SECONDS);
            assertEquals(large.endOffset(), log.startOffset(), "the prefix the snapshot covers is gone");
            assertTrue(log.segmentCount() < segments && log.sizeBytes() <= 4096 + 1024,
                    "its segment files were deleted: " + log.segmentCount() + " of " + segments + ", "
                            + log.sizeBytes() + " bytes");
        }
        log.close();
        try (FileRaftLog reopened = FileRaftLog.open(logDir, 4096)) {
            assertTrue(reopened.startOffset() > 0, "a restart keeps the deleted prefix deleted");
        }
    }

    private static void appendAndAwaitCommit(RaftDriver driver, CommitRecorder commits, int batches)
            throws Exception {
        long last = -1;
        for (int i = 0; i < batches; i++) {
            last = driver.append(commits.leaderEpoch, List.of(new byte[200], new byte[200]))
                    .get(30, TimeUnit.SECONDS);
        }
        long target = last;
        await().atMost(Duration.ofSeconds(30)).until(() -> commits.committedEnd > target);
    }

    /** Records how far the log is committed, and snapshots "up to there" (the state itself does not matter here). */
    private static final class CommitRecorder implements RaftListener {
        volatile long committedEnd;
        volatile int committedEpoch;
        volatile int leaderEpoch;

        SnapshotId snapshot(FileSnapshotStore snapshots) {
            SnapshotId id = new SnapshotId(committedEnd, committedEpoch);
            snapshots.save(id, directory -> {
                Files.createDirectories(directory);
                Files.write(directory.resolve("state"), new byte[] {1});
            });
            return id;
        }

        @Override
        public void handleCommit(CommittedBatch batch) {
            committedEpoch = batch.epoch();
            committedEnd = batch.lastOffset() + 1;
        }

        @Override
        public void handleLoadSnapshot(SnapshotId snapshotId) {
        }

        @Override
        public void handleLeaderChange(LeaderAndEpoch leader) {
            if (leader.leaderId().isPresent()) {
                leaderEpoch = leader.epoch();
            }
        }
    }
}
