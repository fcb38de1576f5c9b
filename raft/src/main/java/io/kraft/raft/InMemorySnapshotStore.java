package io.kraft.raft;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A {@link SnapshotStore} in memory for simulations and unit tests. Everything in it counts as durable (it
 * survives a simulated crash), except what a simulation tears with {@link #tearIncoming}. The transfer form of a
 * snapshot is its state bytes followed by their CRC32C, so an install still verifies the whole.
 */
public final class InMemorySnapshotStore implements SnapshotStore {
    private final TreeMap<SnapshotId, byte[]> snapshots = new TreeMap<>();
    private final Map<SnapshotId, byte[]> incoming = new HashMap<>();

    /** Stores a snapshot the state machine made: {@code state} is whatever it needs to rebuild itself. */
    public void save(SnapshotId id, byte[] state) {
        ByteBuffer form = ByteBuffer.allocate(state.length + 4);
        form.put(state).putInt(Crc32c.of(state));
        snapshots.put(id, form.array());
    }

    /** The state bytes of a stored snapshot. */
    public byte[] state(SnapshotId id) {
        byte[] form = form(id);
        return Arrays.copyOf(form, form.length - 4);
    }

    @Override
    public Optional<SnapshotId> latest() {
        return snapshots.isEmpty() ? Optional.empty() : Optional.of(snapshots.lastKey());
    }

    @Override
    public boolean contains(SnapshotId id) {
        return snapshots.containsKey(id);
    }

    @Override
    public long sizeBytes(SnapshotId id) {
        return form(id).length;
    }

    @Override
    public byte[] read(SnapshotId id, long position, int maxBytes) {
        byte[] form = form(id);
        if (position < 0 || position > form.length) {
            throw new IllegalArgumentException("position " + position + " is outside snapshot " + id + " of "
                    + form.length + " bytes");
        }
        return Arrays.copyOfRange(form, (int) position, (int) Math.min(form.length, position + maxBytes));
    }

    @Override
    public long receivedBytes(SnapshotId id) {
        byte[] partial = incoming.get(id);
        return partial == null ? 0 : partial.length;
    }

    @Override
    public void receive(SnapshotId id, long position, byte[] data, int crc32c) {
        if (Crc32c.of(data) != crc32c) {
            throw new CorruptSnapshotException("chunk of snapshot " + id + " at position " + position
                    + " fails its CRC32C check");
        }
        byte[] partial = incoming.getOrDefault(id, new byte[0]);
        if (position != partial.length) {
            throw new IllegalArgumentException("chunk of snapshot " + id + " at position " + position
                    + " but " + partial.length + " bytes were received");
        }
        byte[] grown = Arrays.copyOf(partial, partial.length + data.length);
        System.arraycopy(data, 0, grown, partial.length, data.length);
        incoming.put(id, grown);
    }

    @Override
    public void install(SnapshotId id) {
        byte[] form = incoming.remove(id);
        if (form == null || form.length < 4) {
            throw new CorruptSnapshotException("snapshot " + id + " is incomplete");
        }
        int expected = ByteBuffer.wrap(form, form.length - 4, 4).getInt();
        if (Crc32c.of(form, 0, form.length - 4) != expected) {
            throw new CorruptSnapshotException("received snapshot " + id + " fails its CRC32C check");
        }
        snapshots.put(id, form);
        incoming.keySet().removeIf(other -> other.compareTo(id) <= 0); // transfers that can no longer matter
    }

    /** The snapshots partly received, for a simulation to decide what a crash does to them. */
    public Set<SnapshotId> incoming() {
        return Set.copyOf(incoming.keySet());
    }

    /**
     * Simulates a crash while a chunk of incoming snapshot {@code id} was being written: only its first
     * {@code keepBytes} survive, and with {@code garbled} the last of them is not what was sent (a torn write that
     * left junk). A transfer resumes after what survived; junk shows when the whole is verified on install.
     */
    public void tearIncoming(SnapshotId id, long keepBytes, boolean garbled) {
        byte[] partial = incoming.get(id);
        if (partial == null || keepBytes < 0 || keepBytes > partial.length) {
            throw new IllegalArgumentException("cannot keep " + keepBytes + " bytes of incoming snapshot " + id);
        }
        byte[] kept = Arrays.copyOf(partial, (int) keepBytes);
        if (garbled && kept.length > 0) {
            kept[kept.length - 1] ^= 0x5A;
        }
        incoming.put(id, kept);
    }

    private byte[] form(SnapshotId id) {
        byte[] form = snapshots.get(id);
        if (form == null) {
            throw new IllegalArgumentException("no snapshot " + id);
        }
        return form;
    }
}
