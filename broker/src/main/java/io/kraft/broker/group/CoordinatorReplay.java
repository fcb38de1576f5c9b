package io.kraft.broker.group;

import io.kraft.broker.group.CoordinatorRecord.ConsumerGroupPart;
import io.kraft.broker.group.CoordinatorRecord.GroupMetadata;
import io.kraft.broker.group.CoordinatorRecord.GroupMetadataValue;
import io.kraft.broker.group.CoordinatorRecord.OffsetCommit;
import io.kraft.broker.group.consumer.ConsumerGroupReplay;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Replays a {@code __consumer_offsets} partition's entries in log order into what its groups were: the last
 * metadata of each group, its committed offsets, and the offsets of transactions still undecided at the end
 * (KIP-98). A transaction's offsets count only from its COMMIT marker on, and then only where no plain commit or
 * tombstone was written after them; an aborted transaction's never count. Positions number the records in log order.
 */
final class CoordinatorReplay {
    /** An offset and where in the log it was written. */
    record Positioned(OffsetAndMetadata offset, long position) {
    }

    /** An offset written in a transaction of {@code producerId}, not decided at the end of the log. */
    record Undecided(long producerId, OffsetKey partition, Positioned offset) {
    }

    private record Written(String groupId, OffsetKey partition, Positioned offset) {
    }

    private final Map<String, GroupMetadataValue> groups = new HashMap<>();
    private final Map<String, Map<OffsetKey, Positioned>> offsets = new TreeMap<>();
    private final Map<Long, List<Written>> openTransactions = new HashMap<>();
    private final ConsumerGroupReplay consumerGroups = new ConsumerGroupReplay();
    private long position;

    void replay(List<CoordinatorLogEntry> entries) {
        for (CoordinatorLogEntry entry : entries) {
            if (entry instanceof CoordinatorLogEntry.Records batch) {
                for (CoordinatorRecord record : batch.records()) {
                    replay(batch, record, position++);
                }
            } else if (entry instanceof CoordinatorLogEntry.Marker marker) {
                List<Written> written = openTransactions.remove(marker.producerId());
                if (marker.committed() && written != null) {
                    written.forEach(w -> commit(w.groupId(), w.partition(), w.offset()));
                }
            }
        }
    }

    private void replay(CoordinatorLogEntry.Records batch, CoordinatorRecord record, long at) {
        if (record instanceof OffsetCommit commit) {
            if (batch.isTransactional()) {
                if (!commit.isTombstone()) {
                    openTransactions.computeIfAbsent(batch.producerId(), id -> new ArrayList<>())
                            .add(new Written(commit.groupId(), commit.partition(),
                                    new Positioned(commit.value(), at)));
                }
                return;
            }
            Map<OffsetKey, Positioned> groupOffsets = offsets.computeIfAbsent(commit.groupId(), id -> new TreeMap<>());
            if (commit.isTombstone()) {
                groupOffsets.remove(commit.partition());
                openTransactions.values().forEach(written -> written.removeIf(
                        w -> w.groupId().equals(commit.groupId()) && w.partition().equals(commit.partition())));
            } else {
                groupOffsets.put(commit.partition(), new Positioned(commit.value(), at));
            }
        } else if (record instanceof ConsumerGroupPart part) {
            consumerGroups.replay(part.record());
        } else if (record instanceof GroupMetadata metadata) {
            if (metadata.isTombstone()) {
                groups.remove(metadata.groupId());
            } else {
                groups.put(metadata.groupId(), metadata.value());
            }
        }
    }

    private void commit(String groupId, OffsetKey partition, Positioned offset) {
        Map<OffsetKey, Positioned> groupOffsets = offsets.computeIfAbsent(groupId, id -> new TreeMap<>());
        Positioned current = groupOffsets.get(partition);
        if (current == null || current.position() < offset.position()) {
            groupOffsets.put(partition, offset);
        }
    }

    /** The last metadata of each group that has some. */
    Map<String, GroupMetadataValue> groups() {
        return groups;
    }

    /** The consumer-protocol groups (KIP-848). */
    ConsumerGroupReplay consumerGroups() {
        return consumerGroups;
    }

    /** The committed offsets of each group (possibly an empty map). */
    Map<String, Map<OffsetKey, Positioned>> offsets() {
        return offsets;
    }

    /** The offsets of transactions without a marker yet, by group. */
    Map<String, List<Undecided>> undecided() {
        Map<String, List<Undecided>> byGroup = new TreeMap<>();
        openTransactions.forEach((producerId, written) -> written.forEach(w -> byGroup
                .computeIfAbsent(w.groupId(), id -> new ArrayList<>())
                .add(new Undecided(producerId, w.partition(), w.offset()))));
        return byGroup;
    }

    /** The position after the last record replayed. */
    long endPosition() {
        return position;
    }
}
