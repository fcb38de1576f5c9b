package io.kraft.metadata.image;

import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.PartitionRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * One partition's replicas, in-sync replicas, leader and epochs, the log directory of each replica where one is
 * known ({@code directories}: empty, or one per replica in replica order with {@link #UNKNOWN_DIRECTORY} where
 * unknown; KIP-858), and a running reassignment (KIP-455): {@code replicas} is then the target replicas followed by
 * the {@code removingReplicas}, and {@code addingReplicas} are the target replicas that are catching up. With
 * {@code eligible.leader.replicas.version} 1 (KIP-966) it also keeps the eligible leader replicas ({@code elr}:
 * outside the ISR but holding every record below the high watermark) and the last-known ELR (members dropped after
 * an unclean shutdown).
 */
public record PartitionRegistration(List<Integer> replicas, List<Integer> isr, int leader, int leaderEpoch,
                                    int partitionEpoch, List<UUID> directories, List<Integer> addingReplicas,
                                    List<Integer> removingReplicas, List<Integer> elr, List<Integer> lastKnownElr) {
    /** The leader id of a partition without a leader. */
    public static final int NO_LEADER = -1;
    /** The directory of a replica whose directory is not known. */
    public static final UUID UNKNOWN_DIRECTORY = new UUID(0, 0);

    public PartitionRegistration {
        replicas = List.copyOf(replicas);
        isr = List.copyOf(isr);
        directories = List.copyOf(directories);
        addingReplicas = List.copyOf(addingReplicas);
        removingReplicas = List.copyOf(removingReplicas);
        elr = List.copyOf(elr);
        lastKnownElr = List.copyOf(lastKnownElr);
        if (!directories.isEmpty() && directories.size() != replicas.size()) {
            throw new InvalidMetadataRecordException("Directories " + directories + " do not match replicas "
                    + replicas);
        }
    }

    /** A partition with no eligible leader replicas. */
    public PartitionRegistration(List<Integer> replicas, List<Integer> isr, int leader, int leaderEpoch,
                                 int partitionEpoch, List<UUID> directories, List<Integer> addingReplicas,
                                 List<Integer> removingReplicas) {
        this(replicas, isr, leader, leaderEpoch, partitionEpoch, directories, addingReplicas, removingReplicas,
                List.of(), List.of());
    }

    /** A partition with no reassignment running. */
    public PartitionRegistration(List<Integer> replicas, List<Integer> isr, int leader, int leaderEpoch,
                                 int partitionEpoch, List<UUID> directories) {
        this(replicas, isr, leader, leaderEpoch, partitionEpoch, directories, List.of(), List.of());
    }

    /** A partition whose replicas' directories are not known, with no reassignment running. */
    public PartitionRegistration(List<Integer> replicas, List<Integer> isr, int leader, int leaderEpoch,
                                 int partitionEpoch) {
        this(replicas, isr, leader, leaderEpoch, partitionEpoch, List.of());
    }

    public static PartitionRegistration fromRecord(PartitionRecord record) {
        return new PartitionRegistration(record.getReplicasList(), record.getIsrList(), record.getLeader(),
                record.getLeaderEpoch(), record.getPartitionEpoch(),
                record.getDirectoriesList().stream().map(Uuids::fromProto).toList(),
                record.getAddingReplicasList(), record.getRemovingReplicasList(),
                record.getEligibleLeaderReplicasList(), record.getLastKnownElrList());
    }

    /** Whether a reassignment is running (replicas are being added or removed). */
    public boolean isReassigning() {
        return !addingReplicas.isEmpty() || !removingReplicas.isEmpty();
    }

    /** The replicas the partition will have once its reassignment completes (its replicas when none runs). */
    public List<Integer> targetReplicas() {
        return removingReplicas.isEmpty() ? replicas
                : replicas.stream().filter(r -> !removingReplicas.contains(r)).toList();
    }

    /** The preferred leader: the first replica (of the target replicas while a reassignment runs). */
    public int preferredLeader() {
        return replicas.get(0);
    }

    /** The log directory the broker's replica lives in, if known. */
    public Optional<UUID> directoryOf(int brokerId) {
        int index = replicas.indexOf(brokerId);
        if (index < 0 || directories.isEmpty() || directories.get(index).equals(UNKNOWN_DIRECTORY)) {
            return Optional.empty();
        }
        return Optional.of(directories.get(index));
    }

    /** The directories, one per replica, with the broker's replica placed in {@code directory}. */
    public List<UUID> directoriesWith(int brokerId, UUID directory) {
        List<UUID> updated = new ArrayList<>(directories.isEmpty()
                ? Collections.nCopies(replicas.size(), UNKNOWN_DIRECTORY) : directories);
        updated.set(replicas.indexOf(brokerId), directory);
        return updated;
    }

    /**
     * This partition after a change: the partition epoch always grows by one, the leader epoch grows by one
     * when the change names a leader (even the same one, which is how a leader is made to restart its term).
     */
    public PartitionRegistration merge(PartitionChangeRecord change) {
        List<Integer> newReplicas = change.hasReplicas() ? change.getReplicas().getBrokerIdsList() : replicas;
        List<UUID> newDirectories;
        if (change.hasDirectories()) {
            newDirectories = change.getDirectories().getDirectoryIdsList().stream().map(Uuids::fromProto).toList();
        } else if (change.hasReplicas()) {
            // Replicas that stay keep their directories; new ones are unknown.
            newDirectories = newReplicas.stream().map(r -> directoryOf(r).orElse(UNKNOWN_DIRECTORY)).toList();
            if (newDirectories.stream().allMatch(UNKNOWN_DIRECTORY::equals)) {
                newDirectories = List.of();
            }
        } else {
            newDirectories = directories;
        }
        return new PartitionRegistration(
                newReplicas,
                change.hasIsr() ? change.getIsr().getBrokerIdsList() : isr,
                change.hasLeader() ? change.getLeader() : leader,
                change.hasLeader() ? leaderEpoch + 1 : leaderEpoch,
                partitionEpoch + 1,
                newDirectories,
                change.hasAddingReplicas() ? change.getAddingReplicas().getBrokerIdsList() : addingReplicas,
                change.hasRemovingReplicas() ? change.getRemovingReplicas().getBrokerIdsList() : removingReplicas,
                change.hasEligibleLeaderReplicas() ? change.getEligibleLeaderReplicas().getBrokerIdsList() : elr,
                change.hasLastKnownElr() ? change.getLastKnownElr().getBrokerIdsList() : lastKnownElr);
    }

    public boolean hasLeader() {
        return leader != NO_LEADER;
    }

    /** The record that creates exactly this state (used on creation and in snapshots). */
    public MetadataRecord toRecord(UUID topicId, int partitionId) {
        return MetadataRecords.of(PartitionRecord.newBuilder()
                .setTopicId(Uuids.toProto(topicId))
                .setPartitionId(partitionId)
                .addAllReplicas(replicas)
                .addAllIsr(isr)
                .setLeader(leader)
                .setLeaderEpoch(leaderEpoch)
                .setPartitionEpoch(partitionEpoch)
                .addAllDirectories(directories.stream().map(Uuids::toProto).toList())
                .addAllAddingReplicas(addingReplicas)
                .addAllRemovingReplicas(removingReplicas)
                .addAllEligibleLeaderReplicas(elr)
                .addAllLastKnownElr(lastKnownElr)
                .build());
    }
}
