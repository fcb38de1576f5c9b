package io.kraft.raft;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An error escaping the Raft thread stops it and reaches the fatal error handler once, with one line. */
class RaftDriverFatalErrorTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final FailingLog log = new FailingLog();
    private final AtomicReference<String> fatal = new AtomicReference<>();
    private final AtomicReference<Throwable> fatalCause = new AtomicReference<>();
    private final AtomicInteger fatalCount = new AtomicInteger();
    private final AtomicBoolean leaderReady = new AtomicBoolean();
    private RaftDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    @Test
    void aFailedLogFlushStopsTheThreadAndReachesTheHandler() throws Exception {
        startSingleVoter();
        CompletableFuture<Long> first = driver.append(epoch(), List.of(bytes("before")));
        assertEquals(true, first.get(10, TimeUnit.SECONDS) >= 0);

        log.failFlush.set(true);
        driver.append(epoch(), List.of(bytes("lost")));
        await().atMost(WAIT).until(() -> fatal.get() != null);
        assertEquals("Raft node 1 stopped: cannot flush raft log: No space left on device", fatal.get());
        assertTrue(fatalCause.get() instanceof UncheckedIOException);

        // The thread is gone: nothing runs any more, and callers hear so instead of waiting forever.
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> driver.describe().get(10, TimeUnit.SECONDS));
        assertTrue(refused.getCause().getMessage().contains("stopped"), refused.getCause().getMessage());
        assertEquals(1, fatalCount.get());
    }

    @Test
    void anExceptionFromTheListenerIsFatalToo() throws Exception {
        startSingleVoter(batch -> {
            if (new String(batch.records().get(0), StandardCharsets.UTF_8).equals("poison")) {
                throw new IllegalStateException("listener bug at " + batch.baseOffset());
            }
        });
        driver.append(epoch(), List.of(bytes("poison")));
        await().atMost(WAIT).until(() -> fatal.get() != null);
        assertTrue(fatal.get().startsWith("Raft node 1 stopped: listener bug at "), fatal.get());
    }

    private void startSingleVoter() {
        startSingleVoter(batch -> { });
    }

    private void startSingleVoter(Consumer<CommittedBatch> commits) {
        RaftConfig config = new RaftConfig(1, Set.of(1), 5, 10, 3, 8, 2, 100);
        RaftListener listener = new RaftListener() {
            @Override
            public void handleCommit(CommittedBatch batch) {
                commits.accept(batch);
            }

            @Override
            public void handleLoadSnapshot(SnapshotId snapshotId) {
            }

            @Override
            public void handleLeaderChange(LeaderAndEpoch leaderAndEpoch) {
            }

            @Override
            public void handleLeaderReady(LeaderReady ready) {
                leaderReady.set(true);
            }
        };
        driver = new RaftDriver(config, 5, log, new InMemorySnapshotStore(), LogRetentionPolicy.KEEP_LOG,
                new InMemoryQuorumStateStore(), new SilentTransport(), listener, 1, (message, cause) -> {
                    fatalCount.incrementAndGet();
                    fatalCause.set(cause);
                    fatal.set(message);
                });
        driver.start();
        await().atMost(WAIT).untilTrue(leaderReady);
    }

    private int epoch() throws Exception {
        return driver.describe().get(10, TimeUnit.SECONDS).epoch();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** An in-memory log whose flush fails, as a full or failing disk's fsync would, once told to. */
    private static final class FailingLog implements RaftLog {
        private final InMemoryRaftLog delegate = new InMemoryRaftLog();
        final AtomicBoolean failFlush = new AtomicBoolean();

        @Override
        public void append(List<LogEntry> entries) {
            delegate.append(entries);
        }

        @Override
        public void truncateTo(long offset) {
            delegate.truncateTo(offset);
        }

        @Override
        public void deletePrefix(SnapshotId snapshot) {
            delegate.deletePrefix(snapshot);
        }

        @Override
        public void flush() {
            if (failFlush.get()) {
                throw new UncheckedIOException("cannot flush raft log", new IOException("No space left on device"));
            }
            delegate.flush();
        }

        @Override
        public long startOffset() {
            return delegate.startOffset();
        }

        @Override
        public List<LogEntry> read(long offset, int maxEntries) {
            return delegate.read(offset, maxEntries);
        }

        @Override
        public long endOffset() {
            return delegate.endOffset();
        }

        @Override
        public int lastEpoch() {
            return delegate.lastEpoch();
        }

        @Override
        public int epochOf(long offset) {
            return delegate.epochOf(offset);
        }

        @Override
        public OffsetAndEpoch endOffsetForEpoch(int epoch) {
            return delegate.endOffsetForEpoch(epoch);
        }
    }
}
