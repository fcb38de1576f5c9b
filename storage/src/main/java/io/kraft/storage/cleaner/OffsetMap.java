package io.kraft.storage.cleaner;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A fixed-size map from record key to the latest offset seen for it, used by the cleaner to decide
 * which records survive. Keys are stored as 16-byte MD5 digests in one preallocated buffer with linear
 * probing, so memory is bounded by the configured size however large the keys are. Two keys would
 * only be confused on a 128-bit digest collision, which is negligible at any realistic key count.
 */
final class OffsetMap {
    static final int DIGEST_BYTES = 16;
    private static final int SLOT_BYTES = DIGEST_BYTES + Long.BYTES;
    /** Fraction of slots that may be used before the map reports itself full: keeps probe chains short. */
    private static final double LOAD_FACTOR = 0.9;

    private final ByteBuffer slots;
    private final int slotCount;
    private final int maxEntries;
    private final MessageDigest md5;
    private final byte[] digest = new byte[DIGEST_BYTES];
    private int entries;
    private long lookups;
    private long probes;
    private long latestOffset = -1;

    OffsetMap(int memoryBytes) {
        if (memoryBytes < SLOT_BYTES * 4) {
            throw new IllegalArgumentException("offset map needs at least " + SLOT_BYTES * 4 + " bytes, got " + memoryBytes);
        }
        this.slotCount = memoryBytes / SLOT_BYTES;
        this.maxEntries = (int) (slotCount * LOAD_FACTOR);
        this.slots = ByteBuffer.allocate(slotCount * SLOT_BYTES);
        try {
            this.md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required by every Java runtime", e);
        }
    }

    int size() {
        return entries;
    }

    boolean isFull() {
        return entries >= maxEntries;
    }

    int maxEntries() {
        return maxEntries;
    }

    /** The highest offset put so far, or -1. */
    long latestOffset() {
        return latestOffset;
    }

    /** Mean probes per lookup, for the cleaner's statistics. */
    double probesPerLookup() {
        return lookups == 0 ? 0 : (double) probes / lookups;
    }

    void clear() {
        slots.clear();
        java.util.Arrays.fill(slots.array(), (byte) 0);
        entries = 0;
        latestOffset = -1;
    }

    /**
     * Records {@code offset} as the latest for {@code key} (its remaining bytes; position untouched).
     *
     * @throws IllegalStateException when the map is full and the key is new
     */
    void put(ByteBuffer key, long offset) {
        hash(key);
        int slot = findSlot();
        int base = slot * SLOT_BYTES;
        if (!isOccupied(base)) {
            if (isFull()) {
                throw new IllegalStateException("offset map is full at " + entries + " entries");
            }
            slots.put(base, digest);
            entries++;
        }
        slots.putLong(base + DIGEST_BYTES, offset);
        latestOffset = Math.max(latestOffset, offset);
    }

    /** The latest offset recorded for {@code key}, or -1 if none. */
    long get(ByteBuffer key) {
        hash(key);
        int base = findSlot() * SLOT_BYTES;
        return isOccupied(base) ? slots.getLong(base + DIGEST_BYTES) : -1L;
    }

    private void hash(ByteBuffer key) {
        md5.update(key.duplicate());
        try {
            md5.digest(digest, 0, DIGEST_BYTES);
        } catch (java.security.DigestException e) {
            throw new IllegalStateException("MD5 digest of " + DIGEST_BYTES + " bytes failed", e);
        }
    }

    /** The slot holding the current digest, or the empty slot where it would go. */
    private int findSlot() {
        lookups++;
        int start = Math.floorMod(ByteBuffer.wrap(digest).getInt(0), slotCount);
        for (int i = 0; i < slotCount; i++) {
            probes++;
            int slot = (start + i) % slotCount;
            int base = slot * SLOT_BYTES;
            if (!isOccupied(base) || matches(base)) {
                return slot;
            }
        }
        throw new IllegalStateException("offset map has no free slot");
    }

    /** A slot is empty when its digest and offset are all zero; a real entry has offset >= 0 plus a digest. */
    private boolean isOccupied(int base) {
        for (int i = 0; i < DIGEST_BYTES; i += Long.BYTES) {
            if (slots.getLong(base + i) != 0) {
                return true;
            }
        }
        return false;
    }

    private boolean matches(int base) {
        for (int i = 0; i < DIGEST_BYTES; i++) {
            if (slots.get(base + i) != digest[i]) {
                return false;
            }
        }
        return true;
    }
}
