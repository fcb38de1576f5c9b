package io.kraft.broker.group;

import io.kraft.broker.group.CoordinatorRecord.OffsetCommit;
import io.kraft.broker.group.GroupApi.CommitRequest;
import io.kraft.broker.group.GroupApi.FetchedOffset;
import io.kraft.broker.group.GroupApi.OffsetDeleteResult;
import io.kraft.broker.group.GroupApi.OffsetFetchResult;
import io.kraft.broker.group.GroupApi.PartitionCommit;
import io.kraft.storage.errors.Errors;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Committed offsets of one group: the OffsetCommit checks (generation, member, rebalance state, metadata size),
 * TxnOffsetCommit's offsets pending until their transaction's marker, OffsetFetch, OffsetDelete, and retention
 * expiry. A commit is visible, and answered, only once its records are committed in {@code __consumer_offsets}.
 * Runs on the coordinator thread.
 */
final class OffsetManager {
    private final GroupConfig config;
    private final CoordinatorTimer timer;
    private final GroupRecordWriter writer;
    private final TransactionalRecordWriter transactionalWriter;
    private final Predicate<OffsetKey> partitionExists;

    OffsetManager(GroupConfig config, CoordinatorTimer timer, GroupRecordWriter writer,
                  TransactionalRecordWriter transactionalWriter, Predicate<OffsetKey> partitionExists) {
        this.config = config;
        this.timer = timer;
        this.writer = writer;
        this.transactionalWriter = transactionalWriter;
        this.partitionExists = partitionExists;
    }

    /** The error that refuses a whole commit, or NONE; a null group means it does not exist yet. */
    Errors validateCommit(ClassicGroup group, CommitRequest request) {
        if (group == null) {
            return request.generationId() < 0 ? Errors.NONE : Errors.ILLEGAL_GENERATION;
        }
        if (group.is(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (group.isFencedStaticMember(request.memberId(), request.groupInstanceId())) {
            return Errors.FENCED_INSTANCE_ID;
        }
        if (request.generationId() < 0 && group.is(GroupState.EMPTY)) {
            return Errors.NONE; // a simple commit: assign() consumers and admin tools
        }
        if (group.is(GroupState.COMPLETING_REBALANCE)) {
            return Errors.REBALANCE_IN_PROGRESS;
        }
        GroupMember member = group.member(request.memberId());
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (!group.acceptsCommitAt(member.memberId(), request.generationId(), keys(request.partitions()))) {
            return Errors.ILLEGAL_GENERATION;
        }
        member.heartbeat(timer.nowMs());
        return Errors.NONE;
    }

    private static List<OffsetKey> keys(List<PartitionCommit> partitions) {
        return partitions.stream().map(PartitionCommit::partition).toList();
    }

    /** Commits the request's offsets to a group that passed {@link #validateCommit}; answers per partition. */
    void commit(ClassicGroup group, CommitRequest request, Consumer<Map<OffsetKey, Errors>> done) {
        long nowMs = timer.nowMs();
        Map<OffsetKey, Errors> results = new LinkedHashMap<>();
        List<CoordinatorRecord> records = new ArrayList<>();
        for (PartitionCommit commit : request.partitions()) {
            String metadata = commit.metadata() == null ? "" : commit.metadata();
            if (metadata.getBytes(StandardCharsets.UTF_8).length > config.offsetMetadataMaxBytes()) {
                results.put(commit.partition(), Errors.OFFSET_METADATA_TOO_LARGE);
            } else if (!partitionExists.test(commit.partition())) {
                results.put(commit.partition(), Errors.UNKNOWN_TOPIC_OR_PARTITION);
            } else {
                OptionalLong expire = request.retentionTimeMs() >= 0
                        ? OptionalLong.of(nowMs + request.retentionTimeMs()) : OptionalLong.empty();
                records.add(new OffsetCommit(group.groupId(), commit.partition(), new OffsetAndMetadata(
                        commit.offset(), commit.leaderEpoch(), metadata, nowMs, expire)));
                results.put(commit.partition(), Errors.NONE);
            }
        }
        if (records.isEmpty()) {
            done.accept(results);
            return;
        }
        records.forEach(r -> group.addPendingCommit(((OffsetCommit) r).partition()));
        long writePosition = group.nextWritePosition();
        writer.write(group, records, error -> {
            for (CoordinatorRecord record : records) {
                OffsetCommit commit = (OffsetCommit) record;
                group.removePendingCommit(commit.partition());
                if (error == Errors.NONE) {
                    if (!group.is(GroupState.DEAD)) {
                        group.putOffsetWrittenAt(commit.partition(), commit.value(), writePosition);
                    }
                } else {
                    results.put(commit.partition(), error);
                }
            }
            done.accept(results);
        });
    }

    /**
     * The error that refuses a whole TxnOffsetCommit, or NONE; a null group means it does not exist yet. Looser than
     * OffsetCommit, as in Kafka: without group metadata (v0-2, or a producer that sent none) the generation and member
     * are not checked, and a rebalance in progress does not refuse it (the transaction fences the offsets instead).
     */
    Errors validateTransactionalCommit(ClassicGroup group, GroupApi.TxnCommitRequest request) {
        boolean hasMember = request.memberId() != null && !request.memberId().isEmpty();
        if (group == null) {
            if (request.generationId() >= 0) {
                return Errors.ILLEGAL_GENERATION;
            }
            return hasMember ? Errors.UNKNOWN_MEMBER_ID : Errors.NONE;
        }
        if (group.is(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (group.isFencedStaticMember(request.memberId(), request.groupInstanceId())) {
            return Errors.FENCED_INSTANCE_ID;
        }
        if (hasMember && group.member(request.memberId()) == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (request.generationId() >= 0
                && !group.acceptsCommitAt(request.memberId(), request.generationId(), keys(request.partitions()))) {
            return Errors.ILLEGAL_GENERATION;
        }
        return Errors.NONE;
    }

    /**
     * Writes the offsets of a TxnOffsetCommit that passed {@link #validateTransactionalCommit} as the producer's
     * transactional records; they stay pending in the group until the transaction's marker decides them.
     */
    void commitTransactional(ClassicGroup group, GroupApi.TxnCommitRequest request,
                             Consumer<Map<OffsetKey, Errors>> done) {
        long nowMs = timer.nowMs();
        Map<OffsetKey, Errors> results = new LinkedHashMap<>();
        List<CoordinatorRecord> records = new ArrayList<>();
        for (PartitionCommit commit : request.partitions()) {
            String metadata = commit.metadata() == null ? "" : commit.metadata();
            if (metadata.getBytes(StandardCharsets.UTF_8).length > config.offsetMetadataMaxBytes()) {
                results.put(commit.partition(), Errors.OFFSET_METADATA_TOO_LARGE);
            } else if (!partitionExists.test(commit.partition())) {
                results.put(commit.partition(), Errors.UNKNOWN_TOPIC_OR_PARTITION);
            } else {
                records.add(new OffsetCommit(group.groupId(), commit.partition(), new OffsetAndMetadata(
                        commit.offset(), commit.leaderEpoch(), metadata, nowMs, OptionalLong.empty())));
                results.put(commit.partition(), Errors.NONE);
            }
        }
        if (records.isEmpty()) {
            done.accept(results);
            return;
        }
        // Pending from the write on, so a marker that lands before this write's answer still finds them.
        long writePosition = group.nextWritePosition();
        Map<OffsetKey, TransactionalOffsets.Pending> added = new LinkedHashMap<>();
        for (CoordinatorRecord record : records) {
            OffsetCommit commit = (OffsetCommit) record;
            TransactionalOffsets.Pending pending = new TransactionalOffsets.Pending(commit.value(), writePosition);
            group.transactionalOffsets().add(request.producerId(), commit.partition(), pending);
            added.put(commit.partition(), pending);
        }
        transactionalWriter.write(group, request.producerId(), request.producerEpoch(), records, error -> {
            if (error != Errors.NONE) {
                added.forEach((partition, pending) -> {
                    group.transactionalOffsets().removeIf(request.producerId(), partition, pending);
                    results.put(partition, error);
                });
            }
            done.accept(results);
        });
    }

    /** The producer's transaction ended in this group's partition: its offsets become committed, or are dropped. */
    static void completeTransaction(ClassicGroup group, long producerId, boolean committed) {
        Map<OffsetKey, TransactionalOffsets.Pending> offsets = group.transactionalOffsets().complete(producerId);
        if (committed && !group.is(GroupState.DEAD)) {
            offsets.forEach((partition, pending) ->
                    group.putOffsetWrittenAt(partition, pending.offset(), pending.writePosition()));
        }
    }

    /** The group's committed offsets for {@code partitions}, or all of them when null; a null group has none. */
    OffsetFetchResult fetch(ClassicGroup group, List<OffsetKey> partitions, boolean requireStable) {
        List<FetchedOffset> offsets = new ArrayList<>();
        if (partitions == null) {
            if (group != null) {
                group.offsets().forEach((partition, offset) -> offsets.add(
                        requireStable && group.transactionalOffsets().hasPending(partition)
                                ? new FetchedOffset(partition, -1, -1, "", Errors.UNSTABLE_OFFSET_COMMIT)
                                : new FetchedOffset(partition, offset.offset(), offset.leaderEpoch(),
                                        offset.metadata(), Errors.NONE)));
            }
            return new OffsetFetchResult(Errors.NONE, offsets);
        }
        for (OffsetKey partition : partitions) {
            if (group != null && requireStable && group.hasPendingCommit(partition)) {
                offsets.add(new FetchedOffset(partition, -1, -1, "", Errors.UNSTABLE_OFFSET_COMMIT));
                continue;
            }
            OffsetAndMetadata offset = group == null ? null : group.offsets().get(partition);
            offsets.add(offset == null
                    ? new FetchedOffset(partition, -1, OffsetAndMetadata.NO_LEADER_EPOCH, "", Errors.NONE)
                    : new FetchedOffset(partition, offset.offset(), offset.leaderEpoch(), offset.metadata(),
                            Errors.NONE));
        }
        return new OffsetFetchResult(Errors.NONE, offsets);
    }

    /** OffsetDelete: offsets of topics the group still consumes are kept (GROUP_SUBSCRIBED_TO_TOPIC). */
    void delete(ClassicGroup group, List<OffsetKey> partitions, Consumer<OffsetDeleteResult> done) {
        if (group == null || group.is(GroupState.DEAD)) {
            done.accept(new OffsetDeleteResult(Errors.GROUP_ID_NOT_FOUND, Map.of()));
            return;
        }
        Set<String> subscribed;
        if (group.is(GroupState.EMPTY)) {
            subscribed = Set.of();
        } else if (ConsumerProtocol.PROTOCOL_TYPE.equals(group.protocolType())) {
            Optional<Set<String>> topics = group.subscribedTopics();
            if (topics.isEmpty()) {
                done.accept(new OffsetDeleteResult(Errors.NON_EMPTY_GROUP, Map.of()));
                return;
            }
            subscribed = topics.get();
        } else {
            done.accept(new OffsetDeleteResult(Errors.NON_EMPTY_GROUP, Map.of()));
            return;
        }
        Map<OffsetKey, Errors> results = new LinkedHashMap<>();
        List<CoordinatorRecord> tombstones = new ArrayList<>();
        for (OffsetKey partition : partitions) {
            if (subscribed.contains(partition.topic())) {
                results.put(partition, Errors.GROUP_SUBSCRIBED_TO_TOPIC);
            } else {
                results.put(partition, Errors.NONE);
                if (group.offsets().containsKey(partition)) {
                    tombstones.add(new OffsetCommit(group.groupId(), partition, null));
                }
            }
        }
        if (tombstones.isEmpty()) {
            done.accept(new OffsetDeleteResult(Errors.NONE, results));
            return;
        }
        writer.write(group, tombstones, error -> {
            if (error != Errors.NONE) {
                done.accept(new OffsetDeleteResult(error, Map.of()));
                return;
            }
            tombstones.forEach(t -> group.removeOffset(((OffsetCommit) t).partition()));
            done.accept(new OffsetDeleteResult(Errors.NONE, results));
        });
    }

    /**
     * The offsets retention would remove now (offsets.retention.minutes): all of an empty consumer group's once
     * it has been empty that long; a simple group's, and a live consumer group's for topics it no longer
     * subscribes to, counted from their commit; an explicit v2-4 expiry wins.
     */
    List<OffsetKey> expiredOffsets(ClassicGroup group) {
        long nowMs = timer.nowMs();
        List<OffsetKey> expired = new ArrayList<>();
        boolean emptyConsumerGroup = group.protocolType() != null && group.is(GroupState.EMPTY);
        Optional<Set<String>> subscribed = group.is(GroupState.EMPTY) ? Optional.empty() : group.subscribedTopics();
        if (group.protocolType() != null && !group.is(GroupState.EMPTY) && subscribed.isEmpty()) {
            return expired; // a live group whose subscriptions we cannot read keeps its offsets
        }
        for (Map.Entry<OffsetKey, OffsetAndMetadata> entry : group.offsets().entrySet()) {
            OffsetAndMetadata offset = entry.getValue();
            if (group.hasPendingCommit(entry.getKey())) {
                continue;
            }
            boolean due;
            if (offset.expireTimestampMs().isPresent()) {
                due = nowMs >= offset.expireTimestampMs().getAsLong();
            } else if (emptyConsumerGroup) {
                long baseMs = group.stateTimestampMs() >= 0 ? group.stateTimestampMs() : offset.commitTimestampMs();
                due = nowMs >= baseMs + config.offsetsRetentionMs();
            } else if (subscribed.isPresent() && subscribed.get().contains(entry.getKey().topic())) {
                due = false;
            } else {
                due = nowMs >= offset.commitTimestampMs() + config.offsetsRetentionMs();
            }
            if (due) {
                expired.add(entry.getKey());
            }
        }
        return expired;
    }
}
