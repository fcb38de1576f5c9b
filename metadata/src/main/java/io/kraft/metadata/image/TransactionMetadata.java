package io.kraft.metadata.image;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.TopicPartitions;
import io.kraft.proto.metadata.TransactionRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The committed state of one transactional id: its producer id and epoch, the transaction's timeout, state, partitions
 * and groups, and when it started and last changed (wall-clock ms). Immutable.
 *
 * @param previousProducerId    the producer id before the last bump (-1 if none), for retried InitProducerId (KIP-360)
 * @param previousProducerEpoch the epoch before the last bump (-1 if none)
 * @param startTimeMs           when the open transaction started, -1 if none is open
 * @param coordinatorEpoch      the controller epoch that wrote the current state (markers carry it)
 * @param transactionVersion    the transaction protocol version the open (or last) transaction began with, 1 or 2
 *                              (KIP-890 part 2)
 * @param nextProducerId        version 2: the producer id the id moves to when a decided transaction that used up
 *                              its epochs completes, -1 if none
 */
public record TransactionMetadata(String transactionalId, long producerId, short producerEpoch,
                                  long previousProducerId, short previousProducerEpoch, int timeoutMs,
                                  TransactionState state, Set<TopicIdPartition> partitions, Set<String> groups,
                                  long startTimeMs, long updateTimeMs, int coordinatorEpoch, int transactionVersion,
                                  long nextProducerId) {
    public TransactionMetadata {
        Objects.requireNonNull(transactionalId, "transactionalId");
        Objects.requireNonNull(state, "state");
        partitions = Set.copyOf(partitions);
        groups = Set.copyOf(groups);
    }

    /** A version 1 state with no next producer id. */
    public TransactionMetadata(String transactionalId, long producerId, short producerEpoch, long previousProducerId,
                               short previousProducerEpoch, int timeoutMs, TransactionState state,
                               Set<TopicIdPartition> partitions, Set<String> groups, long startTimeMs,
                               long updateTimeMs, int coordinatorEpoch) {
        this(transactionalId, producerId, producerEpoch, previousProducerId, previousProducerEpoch, timeoutMs, state,
                partitions, groups, startTimeMs, updateTimeMs, coordinatorEpoch, 1, -1L);
    }

    /** This state replaced by what {@code record} says (its partitions and groups join, unless the state clears them). */
    public static TransactionMetadata replay(TransactionMetadata before, TransactionRecord record, int recordEpoch) {
        TransactionState state = TransactionState.fromProto(record.getState());
        Set<TopicIdPartition> partitions = new HashSet<>();
        Set<String> groups = new HashSet<>();
        if (before != null && state.hasOpenTransaction()) {
            partitions.addAll(before.partitions());
            groups.addAll(before.groups());
        }
        for (TopicPartitions topic : record.getAddedPartitionsList()) {
            UUID topicId = Uuids.fromProto(topic.getTopicId());
            for (int partition : topic.getPartitionsList()) {
                partitions.add(new TopicIdPartition(topicId, partition));
            }
        }
        groups.addAll(record.getAddedGroupsList());
        return new TransactionMetadata(record.getTransactionalId(), record.getProducerId(),
                (short) record.getProducerEpoch(), record.getPreviousProducerId(),
                (short) record.getPreviousProducerEpoch(), record.getTimeoutMs(), state, partitions, groups,
                record.getStartTimeMs(), record.getUpdateTimeMs(),
                record.getCoordinatorEpoch() != 0 ? record.getCoordinatorEpoch() : recordEpoch,
                Math.max(1, record.getTransactionVersion()),
                record.hasNextProducerId() ? record.getNextProducerId() : -1L);
    }

    /** The record of this state with every partition and group (the snapshot form). */
    public MetadataRecord toRecord() {
        return MetadataRecords.of(toRecordBuilder(partitions, groups).build());
    }

    /** A record of this state naming only {@code addedPartitions} and {@code addedGroups} as added. */
    public TransactionRecord.Builder toRecordBuilder(Set<TopicIdPartition> addedPartitions, Set<String> addedGroups) {
        TransactionRecord.Builder builder = TransactionRecord.newBuilder()
                .setTransactionalId(transactionalId)
                .setProducerId(producerId)
                .setProducerEpoch(producerEpoch)
                .setPreviousProducerId(previousProducerId)
                .setPreviousProducerEpoch(previousProducerEpoch)
                .setTimeoutMs(timeoutMs)
                .setState(state.toProto())
                .setStartTimeMs(startTimeMs)
                .setUpdateTimeMs(updateTimeMs)
                .setCoordinatorEpoch(coordinatorEpoch)
                .addAllAddedGroups(new TreeSet<>(addedGroups));
        // Version 1 writes no version, so its records stay as they were before versions were kept.
        if (transactionVersion >= 2) {
            builder.setTransactionVersion(transactionVersion);
        }
        if (nextProducerId >= 0) {
            builder.setNextProducerId(nextProducerId);
        }
        Map<UUID, List<Integer>> byTopic = new TreeMap<>();
        addedPartitions.stream().sorted(Comparator.comparing(TopicIdPartition::topicId)
                        .thenComparingInt(TopicIdPartition::partition))
                .forEach(p -> byTopic.computeIfAbsent(p.topicId(), t -> new ArrayList<>()).add(p.partition()));
        byTopic.forEach((topicId, ids) -> builder.addAddedPartitions(TopicPartitions.newBuilder()
                .setTopicId(Uuids.toProto(topicId)).addAllPartitions(ids)));
        return builder;
    }
}
