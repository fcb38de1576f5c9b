package io.kraft.raft;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The raft thread's inbound queue stays bounded while the thread is held up: the surplus is dropped, not queued. */
class RaftDriverInboxTest {
    /** A transport that only hands the driver's inbound consumer to the test. */
    private static final class CapturingTransport implements RaftTransport {
        volatile Consumer<RaftMessage> inbound;

        @Override
        public void start(Consumer<RaftMessage> inbound) {
            this.inbound = inbound;
        }

        @Override
        public void send(RaftMessage message) {
        }

        @Override
        public void close() {
        }
    }

    @Test
    void messagesBeyondTheBoundAreDroppedWhileTheRaftThreadIsHeldUp() throws Exception {
        CountDownLatch leaderKnown = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RaftListener listener = new RaftListener() {
            @Override
            public void handleCommit(CommittedBatch batch) {
            }

            @Override
            public void handleLoadSnapshot(SnapshotId snapshotId) {
            }

            @Override
            public void handleLeaderChange(LeaderAndEpoch leader) {
                if (leader.leaderId().isPresent()) {
                    leaderKnown.countDown();
                    awaitQuietly(release); // the raft thread is held up here, as by a slow disk
                }
            }
        };
        QuorumConfig quorum = QuorumConfig.from(Map.of(QuorumConfig.VOTERS, "1@localhost:1",
                QuorumConfig.ELECTION_TIMEOUT_MS, "50"));
        CapturingTransport transport = new CapturingTransport();
        try (RaftDriver driver = new RaftDriver(quorum.raftConfig(1, 10, 100), 10, new InMemoryRaftLog(),
                new InMemorySnapshotStore(), LogRetentionPolicy.KEEP_LOG, new InMemoryQuorumStateStore(), transport,
                listener, 1)) {
            driver.start();
            assertTrue(leaderKnown.await(30, TimeUnit.SECONDS), "the single voter elects itself");
            int sent = RaftDriver.MAX_QUEUED_MESSAGES + 5_000;
            for (int i = 0; i < sent; i++) {
                transport.inbound.accept(new RaftMessage.FetchRequest(2, 1, 1, 0, 0));
            }
            assertEquals(RaftDriver.MAX_QUEUED_MESSAGES, driver.queuedMessages());
            assertEquals(5_000, driver.droppedMessages());
            release.countDown();
            await().atMost(Duration.ofSeconds(30)).until(() -> driver.queuedMessages() == 0);
        } finally {
            release.countDown();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
