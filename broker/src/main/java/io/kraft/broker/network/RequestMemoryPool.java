package io.kraft.broker.network;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of received request frames a listener holds at once ({@code queued.max.request.bytes}). A frame
 * is admitted while anything is left, so one frame larger than the whole pool still gets in once the pool is
 * empty and usage never exceeds the capacity by more than one frame; a connection that is refused stops
 * reading and is resumed, on its own event loop, once memory is given back.
 */
final class RequestMemoryPool {
    private final long capacityBytes;
    private final AtomicLong usedBytes = new AtomicLong();
    private final Queue<Runnable> waiters = new ConcurrentLinkedQueue<>();

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
