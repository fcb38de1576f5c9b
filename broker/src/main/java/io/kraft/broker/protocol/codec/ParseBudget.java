package io.kraft.broker.protocol.codec;

/**
 * The heap a parse may spend on the objects it builds, so a frame full of tiny array elements (a 100 MiB frame
 * of empty structs is 100 million objects) is refused up front rather than built: generated readers charge each
 * array's estimated heap here before allocating it, and a charge beyond what is left throws
 * {@link MalformedMessageException}. The budget belongs to the parsing thread between {@link #open} and
 * {@link Scope#close}; outside such a scope nothing is charged (our own messages, tests).
 */
public final class ParseBudget {
    /** What any request may spend, whatever its size: room for very wide but honest requests. */
    public static final long BASE_BYTES = 16L << 20;
    /** Heap per frame byte allowed beyond the base: a parsed request costs at most about this multiple. */
    public static final int BYTES_PER_FRAME_BYTE = 2;

    private static final ThreadLocal<long[]> REMAINING = new ThreadLocal<>();

    private ParseBudget() {
    }

    /** The budget of a request frame of {@code frameBytes}. */
    public static long forFrame(int frameBytes) {
        return BASE_BYTES + (long) BYTES_PER_FRAME_BYTE * frameBytes;
    }

    /** Opens a budget of {@code bytes} for this thread, until the returned scope closes. */
    public static Scope open(long bytes) {
        long[] previous = REMAINING.get();
        REMAINING.set(new long[] {bytes});
        return () -> {
            if (previous == null) {
                REMAINING.remove();
            } else {
                REMAINING.set(previous);
            }
        };
    }

    /** Charges {@code bytes} for {@code count} elements of {@code field}, or throws if the budget cannot pay. */
    static void charge(long bytes, int count, String field) {
        long[] remaining = REMAINING.get();
        if (remaining == null) {
            return;
        }
        if (bytes > remaining[0]) {
            throw new MalformedMessageException("Field " + field + " claims " + count + " elements, about " + bytes
                    + " bytes once parsed, over what is left of the request's parse budget (" + remaining[0]
                    + " bytes)");
        }
        remaining[0] -= bytes;
    }

    /** Bytes left in this thread's budget, or -1 when none is open. */
    public static long remaining() {
        long[] remaining = REMAINING.get();
        return remaining == null ? -1 : remaining[0];
    }

    /** An open budget; closing restores whatever budget was open before. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
