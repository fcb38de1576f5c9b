package io.kraft.metadata.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Immutable lists handed out once per distinct content while a snapshot loads: a million partitions hold only as many
 * distinct replica sets, ISRs and directory lists as the cluster has broker (and directory) combinations, so sharing
 * one list per content spares two to three lists per partition in the image and on the heap.
 *
 * <p>A direct-mapped cache of a fixed number of slots (a colliding content replaces the slot's), so it never grows
 * with the image; a miss only costs the list the decoder would have built anyway. Not thread-safe.
 */
final class SharedLists {
    private static final int SLOTS = 4096;

    private final int[][] intKeys = new int[SLOTS][];
    @SuppressWarnings("unchecked")
    private final List<Integer>[] intLists = new List[SLOTS];
    private final long[][] uuidKeys = new long[SLOTS][];
    @SuppressWarnings("unchecked")
    private final List<UUID>[] uuidLists = new List[SLOTS];

    /** The list of {@code values[0..count)}, shared with every earlier request of the same content still cached. */
    List<Integer> ints(int[] values, int count) {
        if (count == 0) {
            return List.of();
        }
        int hash = 1;
        for (int i = 0; i < count; i++) {
            hash = 31 * hash + values[i];
        }
        int slot = spread(hash);
        int[] key = intKeys[slot];
        if (key != null && Arrays.equals(key, 0, key.length, values, 0, count)) {
            return intLists[slot];
        }
        Integer[] boxed = new Integer[count];
        for (int i = 0; i < count; i++) {
            boxed[i] = values[i];
        }
        List<Integer> list = List.of(boxed);
        intKeys[slot] = Arrays.copyOf(values, count);
        intLists[slot] = list;
        return list;
    }

    /**
     * The list of the ids whose bits are {@code bits[0..2 * count)} (most then least significant of each), shared like
     * {@link #ints}.
     */
    List<UUID> uuids(long[] bits, int count) {
        if (count == 0) {
            return List.of();
        }
        int length = 2 * count;
        long hash = 1;
        for (int i = 0; i < length; i++) {
            hash = 31 * hash + bits[i];
        }
        int slot = spread((int) (hash ^ (hash >>> 32)));
        long[] key = uuidKeys[slot];
        if (key != null && Arrays.equals(key, 0, key.length, bits, 0, length)) {
            return uuidLists[slot];
        }
        List<UUID> ids = new ArrayList<>(count);
        for (int i = 0; i < length; i += 2) {
            ids.add(new UUID(bits[i], bits[i + 1]));
        }
        List<UUID> list = List.copyOf(ids);
        uuidKeys[slot] = Arrays.copyOf(bits, length);
        uuidLists[slot] = list;
        return list;
    }

    private static int spread(int hash) {
        return (hash ^ (hash >>> 16) ^ (hash >>> 8)) & (SLOTS - 1);
    }
}
