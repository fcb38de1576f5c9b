package io.kraft.broker.network;

import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bytes of received request frames a broker's listeners hold at once ({@code queued.max.request.bytes}). Bytes are
 * taken as they arrive, while anything is left (so usage exceeds the capacity by at most one read per event
 * loop); a connection that is refused stops reading and is resumed, on its own event loop, once memory is given
 * back. Since frames take memory as they arrive, a full pool could hold nothing but frames that are still
 * incomplete, none of which could then finish and give memory back: one connection at a time may therefore
 * overdraw the pool to finish its frame, which bounds usage to the capacity plus one frame.
 *
 * <p>Two more rules keep a full pool from being held hostage. A connection reads at most what is left of the
 * pool (at least {@link #MIN_READ_BYTES}), so the bytes thousands of connections hold while they wait for memory
 * stay small (a full-size read each would be 64 KiB times the connections, uncounted). And once a connection has
 * waited for memory longer than the stall limit ({@code queued.max.request.stall.ms}), every other connection
 * whose incomplete frame began before that wait did is closed: frames left half-sent on purpose would otherwise
 * hold the pool, and the overdraft, for good and starve every other client. A pool that keeps serving its
 * waiters within the limit closes nothing, however slowly its frames arrive.
 */
final class RequestMemoryPool {
    private static final Logger LOG = LoggerFactory.getLogger(RequestMemoryPool.class);
    /** The smallest read while the pool is used up: enough for a size prefix and then some. */
    static final int MIN_READ_BYTES = 64;
    /** Marks a time that has not begun (no incomplete frame, not waiting). */
    static final long NEVER = Long.MAX_VALUE;

    private final long capacityBytes;
    private final long maxStallNanos;
    private final LongSupplier nanoClock;
    private final AtomicLong usedBytes = new AtomicLong();
    private final Queue<Connection> waiters = new ConcurrentLinkedQueue<>();
    private final AtomicReference<Object> overdraftHolder = new AtomicReference<>();
    private final Set<Connection> incompleteFrames = ConcurrentHashMap.newKeySet();

    /** A connection as the pool sees it; the times are of {@link #nanos()}. */
    interface Connection {
        /** Since when it has waited for memory (across wake-ups that did not get it any), or {@link #NEVER}. */
        long waitingSinceNanos();

        /** When its incomplete frame began taking memory, or {@link #NEVER}. */
        long frameStartNanos();

        /** Memory may be available: try again, on the connection's own thread. */
        void wake();

        /** Close it, on its own thread, for holding an incomplete frame while {@code starved} waited too long. */
        void closeForStalling(Connection starved, long starvedNanos);

        /** The client's address, for log lines. */
        String peer();
    }

    RequestMemoryPool(long capacityBytes) {
        this(capacityBytes, NetworkLimits.DEFAULT_QUEUED_MAX_REQUEST_STALL_MS, System::nanoTime);
    }

    RequestMemoryPool(long capacityBytes, long maxStallMs, LongSupplier nanoClock) {
        if (capacityBytes < 1) {
            throw new IllegalArgumentException("Request memory must be positive, got " + capacityBytes);
        }
        if (maxStallMs < 1) {
            throw new IllegalArgumentException("The stall limit must be positive, got " + maxStallMs);
        }
        this.capacityBytes = capacityBytes;
        this.maxStallNanos = TimeUnit.MILLISECONDS.toNanos(maxStallMs);
        this.nanoClock = nanoClock;
    }

    /** The pool's clock. */
    long nanos() {
        return nanoClock.getAsLong();
    }

    /** Takes {@code bytes} if any capacity is left; false (nothing taken) when the pool is used up. */
    boolean tryReserve(int bytes) {
        while (true) {
            long used = usedBytes.get();
            if (used >= capacityBytes) {
                return false;
            }
            if (usedBytes.compareAndSet(used, used + bytes)) {
                return true;
            }
        }
    }

    /**
     * Takes {@code bytes} beyond the capacity for {@code holder}, a connection in the middle of a frame, if no
     * other connection holds the overdraft; it keeps it until {@link #endOverdraft}.
     */
    boolean tryOverdraft(Object holder, int bytes) {
        if (overdraftHolder.compareAndSet(null, holder) || overdraftHolder.get() == holder) {
            usedBytes.addAndGet(bytes);
            return true;
        }
        return false;
    }

    /** Ends {@code holder}'s overdraft (its frame is complete or its connection closed), if it has one. */
    void endOverdraft(Object holder) {
        if (overdraftHolder.compareAndSet(holder, null)) {
            wakeWaiters();
        }
    }

    /**
     * How many bytes {@code connection} should read at most when it reads next, {@code wanted} if it could: what is
     * left of the pool, at least {@link #MIN_READ_BYTES}; the holder of the overdraft reads freely.
     */
    int readBytes(Object connection, int wanted) {
        if (overdraftHolder.get() == connection) {
            return wanted;
        }
        long left = capacityBytes - usedBytes.get();
        return (int) Math.max(MIN_READ_BYTES, Math.min(wanted, left));
    }

    /** Gives back bytes of a frame that was released, waking connections that wait for memory. */
    void release(int bytes) {
        long used = usedBytes.addAndGet(-bytes);
        if (used < 0) {
            throw new IllegalStateException("Request memory released twice: " + used + " bytes in use");
        }
        if (used < capacityBytes) {
            wakeWaiters();
        }
    }

    /** Wakes {@code connection} once, after some memory is free (possibly right away). */
    void whenAvailable(Connection connection) {
        waiters.add(connection);
        // Memory may have been released between the refused reservation and this registration.
        if (usedBytes.get() < capacityBytes) {
            wakeWaiters();
        }
    }

    /** {@code connection} closed: it waits no more. */
    void stopWaiting(Connection connection) {
        waiters.remove(connection);
    }

    /** {@code connection} holds memory for a frame still arriving, until {@link #frameEnded}. */
    void frameStarted(Connection connection) {
        incompleteFrames.add(connection);
    }

    void frameEnded(Connection connection) {
        incompleteFrames.remove(connection);
    }

    /**
     * If connections have waited for memory longer than the stall limit, closes every other connection whose
     * incomplete frame began before the latest of those waits did; nothing otherwise. Run periodically. (The
     * latest, not the oldest: a stalled sender that began waiting first must not shelter the others that began
     * their frames after it did but before a well-behaved client started to wait.)
     */
    void closeStalledFrames() {
        long now = nanos();
        Connection starved = null;
        long since = Long.MIN_VALUE;
        for (Connection waiter : waiters) {
            long waiting = waiter.waitingSinceNanos();
            if (waiting != NEVER && now - waiting > maxStallNanos && waiting > since) {
                since = waiting;
                starved = waiter;
            }
        }
        if (starved == null) {
            return;
        }
        long starvedNanos = now - since;
        int closing = 0;
        String example = null;
        for (Connection holder : incompleteFrames) {
            if (holder != starved && holder.frameStartNanos() < since) {
                holder.closeForStalling(starved, starvedNanos);
                closing++;
                example = holder.peer();
            }
        }
        if (closing > 0) {
            LOG.warn("Closing {} connection(s) (one from {}) whose incomplete requests began before the connection from"
                    + " {} started waiting for request memory {} ms ago ({} of {} bytes in use, {} exceeded)", closing,
                    example, starved.peer(), TimeUnit.NANOSECONDS.toMillis(starvedNanos), usedBytes(), capacityBytes,
                    NetworkLimits.QUEUED_MAX_REQUEST_STALL_MS);
        }
    }

    long maxStallMs() {
        return TimeUnit.NANOSECONDS.toMillis(maxStallNanos);
    }

    long usedBytes() {
        return usedBytes.get();
    }

    long capacityBytes() {
        return capacityBytes;
    }

    private void wakeWaiters() {
        Connection waiter;
        while ((waiter = waiters.poll()) != null) {
            waiter.wake();
        }
    }
}
