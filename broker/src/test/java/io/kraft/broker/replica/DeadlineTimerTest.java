package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.Timeout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The purgatories' timer: a deadline runs its task once, after its delay, unless cancelled first. */
class DeadlineTimerTest {
    private final DeadlineTimer timer = new DeadlineTimer("test-deadline-timer");

    @AfterEach
    void stop() {
        timer.stop();
    }

    @Test
    void aDeadlineRunsItsTaskWithItsTimeout() throws Exception {
        CompletableFuture<Timeout> ran = new CompletableFuture<>();
        Timeout timeout = timer.newTimeout(ran::complete, 20, TimeUnit.MILLISECONDS);
        assertSame(timeout, ran.get(30, TimeUnit.SECONDS));
        assertTrue(timeout.isExpired());
        assertFalse(timeout.isCancelled());
        assertSame(timer, timeout.timer());
        assertFalse(timeout.cancel(), "an expired deadline cannot be cancelled");
    }

    @Test
    void aCancelledDeadlineNeverRuns() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        Timeout cancelled = timer.newTimeout(t -> ran.set(true), 50, TimeUnit.MILLISECONDS);
        assertTrue(cancelled.cancel());
        assertTrue(cancelled.isCancelled());
        // A later deadline has run, so the cancelled one would have by now.
        CountDownLatch later = new CountDownLatch(1);
        timer.newTimeout(t -> later.countDown(), 100, TimeUnit.MILLISECONDS);
        assertTrue(later.await(30, TimeUnit.SECONDS));
        assertFalse(ran.get());
        assertFalse(cancelled.isExpired());
    }

    @Test
    void deadlinesSetTogetherShareOneTaskAndNoneRunsEarly() throws Exception {
        int count = 200;
        long delayMs = DeadlineTimer.COALESCE_FROM_MS * 4;
        CountDownLatch allRan = new CountDownLatch(count);
        AtomicInteger early = new AtomicInteger();
        for (int i = 0; i < count; i++) {
            long dueNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
            timer.newTimeout(t -> {
                if (System.nanoTime() < dueNanos) {
                    early.incrementAndGet();
                }
                allRan.countDown();
            }, delayMs, TimeUnit.MILLISECONDS);
        }
        // Set within a few slots of each other: a task per slot, not per deadline.
        assertTrue(timer.scheduledTasks() < count / 10, "scheduled tasks: " + timer.scheduledTasks());
        assertTrue(allRan.await(30, TimeUnit.SECONDS));
        assertEquals(0, early.get(), "deadlines run before their time");
    }

    @Test
    void aCancelledCoalescedDeadlineNeverRunsAndItsSlotStillRunsTheOthers() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        long delayMs = DeadlineTimer.COALESCE_FROM_MS * 2;
        Timeout cancelled = timer.newTimeout(t -> ran.set(true), delayMs, TimeUnit.MILLISECONDS);
        CountDownLatch sibling = new CountDownLatch(1);
        timer.newTimeout(t -> sibling.countDown(), delayMs, TimeUnit.MILLISECONDS);
        assertTrue(cancelled.cancel());
        assertFalse(cancelled.cancel(), "cancelled once");
        CountDownLatch later = new CountDownLatch(1);
        timer.newTimeout(t -> later.countDown(), delayMs * 2, TimeUnit.MILLISECONDS);
        assertTrue(sibling.await(30, TimeUnit.SECONDS));
        assertTrue(later.await(30, TimeUnit.SECONDS));
        assertFalse(ran.get());
        assertTrue(cancelled.isCancelled());
        assertFalse(cancelled.isExpired());
    }

    @Test
    void aFailingTaskDoesNotStopLaterDeadlines() throws Exception {
        timer.newTimeout(t -> {
            throw new IllegalStateException("boom");
        }, 0, TimeUnit.MILLISECONDS);
        CountDownLatch later = new CountDownLatch(1);
        timer.newTimeout(t -> later.countDown(), 10, TimeUnit.MILLISECONDS);
        assertTrue(later.await(30, TimeUnit.SECONDS));
    }
}
