package io.kraft.storage.record;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * A small shared pool of fixed-size scratch arrays for codec blocks and decompression windows, so
 * reading and writing compressed batches does not allocate 64 KiB per batch. Larger requests are
 * plain allocations and are not kept.
 */
final class BufferPool {
    /**
     * Size of pooled arrays: a 64 KiB LZ4 block (what Kafka clients write) plus the worst-case
     * expansion of compressing one, so one size serves both sides of the codec.
     */
    static final int CHUNK_BYTES = 66 * 1024;
    private static final int MAX_POOLED = 32;
    private static final ArrayBlockingQueue<byte[]> FREE = new ArrayBlockingQueue<>(MAX_POOLED);

    private BufferPool() {
    }

    /** An array of at least {@code minBytes}; pooled when that fits a chunk. */
    static byte[] take(int minBytes) {
        if (minBytes > CHUNK_BYTES) {
            return new byte[minBytes];
        }
        byte[] array = FREE.poll();
        return array != null ? array : new byte[CHUNK_BYTES];
    }

    /** Returns an array from {@link #take}; arrays of other sizes are dropped. */
    static void give(byte[] array) {
        if (array != null && array.length == CHUNK_BYTES) {
            FREE.offer(array);
        }
    }
}
