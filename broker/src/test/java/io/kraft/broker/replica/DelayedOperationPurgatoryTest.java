package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Delayed operations complete exactly once: when their condition holds at a check, or at their deadline. */
class DelayedOperationPurgatoryTest {
    private final DeadlineTimer timer = new DeadlineTimer("test-purgatory-timer");
    private final DelayedOperationPurgatory<String> purgatory = new DelayedOperationPurgatory<>("test", timer);

    @AfterEach
    void stopTimer() {
        timer.stop();
    }

    /** Completes when its flag is set; counts completions and remembers whether the deadline did it. */
    private static final class Waiter extends DelayedOperation {
        final AtomicBoolean ready = new AtomicBoolean();
        final AtomicInteger completions = new AtomicInteger();
        final CountDownLatch done = new CountDownLatch(1);
        volatile boolean expired;

        Waiter(long delayMs) {
            super(delayMs);
        }

        @Override
        protected boolean tryComplete() {
            return ready.get() && forceComplete();
        }

        @Override
        protected void onComplete() {
            expired = !ready.get();
            completions.incrementAndGet();
            done.countDown();
        }
    }

    @Test
    void anOperationWhoseConditionHoldsCompletesAtOnce() {
        Waiter waiter = new Waiter(60_000);
        waiter.ready.set(true);
        assertTrue(purgatory.tryCompleteElseWatch(waiter, List.of("a")));
        assertEquals(1, waiter.completions.get());
        assertEquals(0, purgatory.watched());
    }

    @Test
    void aCheckOfAWatchedKeyCompletesIt() {
        Waiter waiter = new Waiter(60_000);
        assertFalse(purgatory.tryCompleteElseWatch(waiter, List.of("a", "b")));
        assertEquals(2, purgatory.watched(), "watched under both keys");
        assertEquals(0, purgatory.checkAndComplete("a"), "condition not met yet");
        waiter.ready.set(true);
        assertEquals(0, purgatory.checkAndComplete("other"));
        assertEquals(1, purgatory.checkAndComplete("b"));
        assertEquals(0, purgatory.checkAndComplete("a"), "already complete");
        assertEquals(1, waiter.completions.get());
        assertFalse(waiter.expired);
        assertEquals(0, purgatory.watched());
    }

    @Test
    void theDeadlineCompletesAnOperationOnce() throws Exception {
        Waiter waiter = new Waiter(20);
        assertFalse(purgatory.tryCompleteElseWatch(waiter, List.of("a")));
        assertTrue(waiter.done.await(10, TimeUnit.SECONDS));
        assertTrue(waiter.expired);
        waiter.ready.set(true);
        purgatory.checkAndComplete("a");
        assertEquals(1, waiter.completions.get());
    }

    @Test
    void completeAllAnswersEveryWaitingOperation() {
        Waiter first = new Waiter(60_000);
        Waiter second = new Waiter(60_000);
        purgatory.tryCompleteElseWatch(first, List.of("a"));
        purgatory.tryCompleteElseWatch(second, List.of("a", "b"));
        purgatory.completeAll();
        assertEquals(1, first.completions.get());
        assertEquals(1, second.completions.get());
        assertEquals(0, purgatory.watched());
    }

    @Test
    void concurrentChecksCompleteEachOperationExactlyOnce() throws Exception {
        int operations = 200;
        List<Waiter> waiters = new ArrayList<>();
        for (int i = 0; i < operations; i++) {
            Waiter waiter = new Waiter(60_000);
            waiters.add(waiter);
            purgatory.tryCompleteElseWatch(waiter, List.of("k" + (i % 3), "shared"));
        }
        waiters.forEach(w -> w.ready.set(true));
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            String key = t == 3 ? "shared" : "k" + t;
            threads[t] = new Thread(() -> purgatory.checkAndComplete(key));
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        for (Waiter waiter : waiters) {
            assertEquals(1, waiter.completions.get());
        }
    }
}
