package io.kraft.broker.network;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The bytes of received request frames a listener holds at once ({@code queued.max.request.bytes}). Bytes are
 * taken as they arrive, while anything is left (so usage exceeds the capacity by at most one read per
 * connection); a connection that is refused stops reading and is resumed, on its own event loop, once memory
 * is given back. Since frames take memory as they arrive, a full pool could hold nothing but frames that are
 * still incomplete, none of which could then finish and give memory back: one connection at a time may
 * therefore overdraw the pool to finish its frame, which bounds usage to the capacity plus one frame.
 */
final class RequestMemoryPool {
    private final long capacityBytes;
    private final AtomicLong usedBytes = new AtomicLong();
    private final Queue<Runnable> waiters = new ConcurrentLinkedQueue<>();
    private final AtomicReference<Object> overdraftHolder = new AtomicReference<>();

    RequestMemoryPool(long capacityBytes) {
        if (capacityBytes < 1) {
            throw new IllegalArgumentException("Request memory must be positive, got " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
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

    /** Runs {@code onMemory} once, after some memory is free (possibly right away). */
    void whenAvailable(Runnable onMemory) {
        waiters.add(onMemory);
        // Memory may have been released between the refused reservation and this registration.
        if (usedBytes.get() < capacityBytes) {
            wakeWaiters();
        }
    }

    long usedBytes() {
        return usedBytes.get();
    }

    long capacityBytes() {
        return capacityBytes;
    }

    private void wakeWaiters() {
        Runnable waiter;
        while ((waiter = waiters.poll()) != null) {
            waiter.run();
        }
    }
}
