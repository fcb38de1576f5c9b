package io.kraft.raft;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The voters of the quorum at one point of the log (KIP-853): who votes, whose acknowledgements count towards the
 * high watermark, and how a majority is counted. Immutable; iterates by id so that a simulation replays exactly.
 */
public record VoterSet(SortedMap<Integer, Voter> voters) {
    /** Version of {@link #encode()}'s layout, its first byte. */
    private static final byte ENCODING_VERSION = 0;
    private static final int MAX_ENDPOINT_BYTES = 1024;

    public VoterSet {
        voters = Collections.unmodifiableSortedMap(new TreeMap<>(voters));
        voters.forEach((id, voter) -> {
            if (id != voter.id()) {
                throw new IllegalArgumentException("voter " + voter + " filed under id " + id);
            }
        });
    }

    /** The empty set: a node joining a dynamic quorum knows no voter until it has read the log. */
    public static VoterSet empty() {
        return new VoterSet(new TreeMap<>());
    }

    /** A static set named by ids alone ({@code controller.quorum.voters}, kraft.version 0). */
    public static VoterSet ofIds(Collection<Integer> ids) {
        TreeMap<Integer, Voter> voters = new TreeMap<>();
        for (int id : ids) {
            voters.put(id, Voter.staticVoter(id));
        }
        return new VoterSet(voters);
    }

    public static VoterSet of(Collection<Voter> voters) {
        TreeMap<Integer, Voter> byId = new TreeMap<>();
        for (Voter voter : voters) {
            if (byId.put(voter.id(), voter) != null) {
                throw new IllegalArgumentException("voter " + voter.id() + " named twice");
            }
        }
        return new VoterSet(byId);
    }

    public SortedSet<Integer> ids() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(voters.keySet()));
    }

    public int size() {
        return voters.size();
    }

    public boolean isEmpty() {
        return voters.isEmpty();
    }

    public boolean contains(int id) {
        return voters.containsKey(id);
    }

    /** Whether replica {@code id} with log directory {@code directoryId} is one of these voters. */
    public boolean contains(int id, UUID directoryId) {
        Voter voter = voters.get(id);
        return voter != null && voter.matches(id, directoryId);
    }

    public Optional<Voter> voter(int id) {
        return Optional.ofNullable(voters.get(id));
    }

    /** Acknowledgements or votes needed for a decision: a strict majority. */
    public int majority() {
        return voters.size() / 2 + 1;
    }

    public VoterSet with(Voter voter) {
        TreeMap<Integer, Voter> next = new TreeMap<>(voters);
        next.put(voter.id(), voter);
        return new VoterSet(next);
    }

    public VoterSet without(int id) {
        TreeMap<Integer, Voter> next = new TreeMap<>(voters);
        next.remove(id);
        return new VoterSet(next);
    }

    /**
     * Whether every majority of this set shares a member with every majority of {@code other}: true for sets one
     * voter apart, which is why KIP-853 changes one voter at a time. Two majorities can avoid each other only if
     * each can be filled from outside the common voters without using more than all of them together.
     */
    public boolean majoritiesIntersect(VoterSet other) {
        int common = 0;
        for (int id : voters.keySet()) {
            if (other.contains(id)) {
                common++;
            }
        }
        int fromCommonHere = Math.max(0, majority() - (size() - common));
        int fromCommonThere = Math.max(0, other.majority() - (other.size() - common));
        return fromCommonHere + fromCommonThere > common;
    }

    /** How many voters are in one set and not the other (by id and directory). */
    public int distanceTo(VoterSet other) {
        int distance = 0;
        for (Voter voter : voters.values()) {
            if (!voter.equals(other.voters.get(voter.id()))) {
                distance++;
            }
        }
        for (Voter voter : other.voters.values()) {
            if (!voter.equals(voters.get(voter.id()))) {
                distance++;
            }
        }
        return distance;
    }

    /** Our own layout of a voters record: version, count, then each voter's id, directory and endpoint. */
    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(ENCODING_VERSION);
            out.writeInt(voters.size());
            for (Voter voter : voters.values()) {
                out.writeInt(voter.id());
                out.writeLong(voter.directoryId().getMostSignificantBits());
                out.writeLong(voter.directoryId().getLeastSignificantBits());
                byte[] endpoint = voter.endpoint().getBytes(StandardCharsets.UTF_8);
                out.writeShort(endpoint.length);
                out.write(endpoint);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Reads {@link #encode()}'s layout.
     *
     * @throws IllegalArgumentException if the bytes are not a voters record of a known version
     */
    public static VoterSet decode(byte[] payload) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(payload))) {
            byte version = in.readByte();
            if (version != ENCODING_VERSION) {
                throw new IllegalArgumentException("voters record of unknown version " + version);
            }
            int count = in.readInt();
            if (count < 0 || count > payload.length / 22) {
                throw new IllegalArgumentException("voters record claims " + count + " voters in " + payload.length
                        + " bytes");
            }
            List<Voter> voters = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int id = in.readInt();
                UUID directory = new UUID(in.readLong(), in.readLong());
                int length = in.readUnsignedShort();
                if (length > MAX_ENDPOINT_BYTES) {
                    throw new IllegalArgumentException("voters record endpoint of " + length + " bytes");
                }
                voters.add(new Voter(id, directory, new String(in.readNBytes(length), StandardCharsets.UTF_8)));
            }
            if (in.available() > 0) {
                throw new IllegalArgumentException("voters record has " + in.available() + " trailing bytes");
            }
            return of(voters);
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated voters record", e);
        }
    }

    @Override
    public String toString() {
        return voters.values().toString();
    }
}
