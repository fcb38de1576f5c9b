package io.kraft.broker.replica;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An answer that waits until a condition holds (records replicated, enough new data) or its delay
 * passes, whichever comes first; it completes exactly once. Subclasses say how to check the condition
 * and how to answer; the {@link DelayedOperationPurgatory} calls the check when something it watches
 * changes, and a timer completes it at the deadline.
 */
public abstract class DelayedOperation {
    private final long delayMs;
    private final AtomicBoolean completed = new AtomicBoolean();
    /** Serializes condition checks, so two threads never complete the same operation's state at once. */
    private final ReentrantLock checkLock = new ReentrantLock();
    private volatile Timeout timeout;

    protected DelayedOperation(long delayMs) {
        this.delayMs = Math.max(0, delayMs);
    }

    /**
     * Checks the condition; when it holds, calls {@link #forceComplete()} and returns its result. Called
     * with the check lock held, never after completion.
     */
    protected abstract boolean tryComplete();

    /**
     * Builds and delivers the answer: runs exactly once, from the completing check or the timer, always with
     * the check lock held (so it never overlaps a check).
     */
    protected abstract void onComplete();

    public long delayMs() {
        return delayMs;
    }

    /**
     * Completes the operation now if nobody has.
     *
     * @return true if this call completed it
     */
    public final boolean forceComplete() {
        checkLock.lock();
        try {
            if (!completed.compareAndSet(false, true)) {
                return false;
            }
            Timeout pending = timeout;
            if (pending != null) {
                pending.cancel();
            }
            onComplete();
            return true;
        } finally {
            checkLock.unlock();
        }
    }

    public final boolean isCompleted() {
        return completed.get();
    }

    /** {@link #tryComplete()} under the check lock, skipped once completed. */
    final boolean safeTryComplete() {
        checkLock.lock();
        try {
            return !isCompleted() && tryComplete();
        } finally {
            checkLock.unlock();
        }
    }

    private void expire() {
        checkLock.lock();
        try {
            forceComplete();
        } finally {
            checkLock.unlock();
        }
    }

    /** Arms the deadline on {@code timer}. */
    final void startTimer(Timer timer) {
        timeout = timer.newTimeout(t -> expire(), delayMs, TimeUnit.MILLISECONDS);
        if (isCompleted()) {
            timeout.cancel(); // completed while the timer was being armed
        }
    }
}
