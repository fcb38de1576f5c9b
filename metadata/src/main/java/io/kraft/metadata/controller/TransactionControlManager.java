package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TransactionMetadata;
import io.kraft.metadata.image.TransactionState;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.ProducerIdsRecord;
import io.kraft.proto.metadata.RemoveTransactionRecord;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The transaction coordinator's decisions (protocol versions 1 and 2, KIP-890 part 2): generates the records that move a transactional id
 * through Empty, Ongoing, PrepareCommit/PrepareAbort and CompleteCommit/CompleteAbort, and answers with Kafka's errors.
 * It reads the ids' states from the {@link SpeculativeMetadata} and keeps only indexes: the next deadline of each id
 * (an open transaction's timeout, an idle id's expiry), and, for ids whose markers are being written, which partitions
 * their leaders have reported done. Those reports are not records: after a failover the leaders, which retry until the
 * image shows the transaction complete, report again. Not thread-safe: the controller's event loop owns it.
 */
public final class TransactionControlManager {
    /** The last epoch a producer id may be bumped to; past it the transactional id moves to a new producer id. */
    public static final short MAX_PRODUCER_EPOCH = Short.MAX_VALUE - 1;
    /** The transaction protocol version whose commit and abort bump the epoch (KIP-890 part 2). */
    public static final int TRANSACTION_VERSION_2 = 2;
    /** At most this many ids are aborted or expired in one batch of records; the rest go in the next. */
    static final int MAX_EXPIRED_PER_BATCH = 100;

    private record Deadline(long deadlineMs, String transactionalId) implements Comparable<Deadline> {
        @Override
        public int compareTo(Deadline other) {
            int byTime = Long.compare(deadlineMs, other.deadlineMs);
            return byTime != 0 ? byTime : transactionalId.compareTo(other.transactionalId);
        }
    }

    private final TransactionSettings settings;
    private final SpeculativeMetadata metadata;
    private final TreeSet<Deadline> deadlines = new TreeSet<>();
    private final Map<String, Deadline> deadlineById = new HashMap<>();
    /** Per id in PrepareCommit/PrepareAbort: the partitions whose leaders reported the marker written. */
    private final Map<String, Set<TopicIdPartition>> reported = new HashMap<>();

    TransactionControlManager(TransactionSettings settings, SpeculativeMetadata metadata) {
        this.settings = settings;
        this.metadata = metadata;
    }

    /** Indexes every id of a committed image (once, when the managers are built from it). */
    void index(MetadataImage image) {
        image.transactions().transactions().values().forEach(state -> transactionChanged(null, state));
    }

    // ---- requests -------------------------------------------------------------------------------------------

    /**
     * InitProducerId with a transactional id: a new id gets a new producer id at epoch 0; a known one gets its epoch
     * bumped (a new producer id once the epoch is used up), which fences the previous producer. An open transaction
     * of the previous epoch is aborted first: PrepareAbort at a bumped epoch, answered CONCURRENT_TRANSACTIONS, which
     * the producer retries until the abort completed. With {@code expectedProducerId} (v3+, KIP-360) the producer
     * states the id and epoch it has: only those, or the ones it had before a bump it is retrying, are accepted.
     */
    public ControllerResult<TransactionalProducer> initProducerId(String transactionalId, int timeoutMs,
                                                                  long expectedProducerId, short expectedEpoch,
                                                                  long nowMs) {
        if (transactionalId == null || transactionalId.isEmpty()) {
            return ControllerResult.failed(Errors.INVALID_REQUEST, "A transactional id must not be empty");
        }
        if (timeoutMs <= 0 || timeoutMs > settings.maxTimeoutMs()) {
            return ControllerResult.failed(Errors.INVALID_TRANSACTION_TIMEOUT, "Transaction timeout " + timeoutMs
                    + " ms is not in 1.." + settings.maxTimeoutMs() + " ms ("
                    + TransactionSettings.TRANSACTION_MAX_TIMEOUT_MS + ")");
        }
        TransactionMetadata current = metadata.transaction(transactionalId);
        if (current == null) {
            if (expectedProducerId >= 0) {
                return ControllerResult.failed(Errors.INVALID_PRODUCER_ID_MAPPING, "Transactional id "
                        + transactionalId + " has no producer id " + expectedProducerId);
            }
            long producerId = metadata.nextProducerId();
            TransactionMetadata created = new TransactionMetadata(transactionalId, producerId, (short) 0, -1L,
                    (short) -1, timeoutMs, TransactionState.EMPTY, Set.of(), Set.of(), -1L, nowMs, 0);
            return ControllerResult.of(List.of(nextProducerIdRecord(producerId + 1), record(created)),
                    TransactionalProducer.of(producerId, (short) 0));
        }
        if (current.state().isPrepare()) {
            return ControllerResult.failed(Errors.CONCURRENT_TRANSACTIONS, "Transactional id " + transactionalId
                    + " is completing a transaction (" + current.state().kafkaName() + ")");
        }
        if (expectedProducerId >= 0) {
            boolean isCurrent = expectedProducerId == current.producerId() && expectedEpoch == current.producerEpoch();
            boolean isRetry = expectedProducerId == current.previousProducerId()
                    && expectedEpoch == current.previousProducerEpoch();
            if (isRetry && current.state() == TransactionState.EMPTY) {
                // The bump the producer asked for already happened; it did not hear the answer.
                return ControllerResult.of(List.of(), TransactionalProducer.of(current.producerId(),
                        current.producerEpoch()));
            }
            // A retry that finds the abort its first attempt started complete goes on to bump the epoch.
            if (!isCurrent && !isRetry) {
                return ControllerResult.failed(Errors.PRODUCER_FENCED, "Transactional id " + transactionalId
                        + " has producer id " + current.producerId() + " epoch " + current.producerEpoch()
                        + ", not " + expectedProducerId + " epoch " + expectedEpoch);
            }
        }
        if (current.state() == TransactionState.ONGOING) {
            // Fence the producer of the open transaction: abort it at a newer epoch, so its own writes are refused.
            TransactionMetadata aborting = prepare(current, false, bumpedEpochOrSame(current), nowMs);
            return ControllerResult.of(List.of(record(aborting)),
                    new TransactionalProducer(Errors.CONCURRENT_TRANSACTIONS, -1L, (short) -1));
        }
        List<MetadataRecord> records = new ArrayList<>();
        long producerId = current.producerId();
        short epoch;
        if (current.producerEpoch() >= MAX_PRODUCER_EPOCH) {
            producerId = metadata.nextProducerId();
            epoch = 0;
            records.add(nextProducerIdRecord(producerId + 1));
        } else {
            epoch = (short) (current.producerEpoch() + 1);
        }
        TransactionMetadata bumped = new TransactionMetadata(transactionalId, producerId, epoch,
                current.producerId(), current.producerEpoch(), timeoutMs, TransactionState.EMPTY, Set.of(), Set.of(),
                -1L, nowMs, 0);
        records.add(record(bumped));
        return ControllerResult.of(records, TransactionalProducer.of(producerId, epoch));
    }

    /**
     * AddPartitionsToTxn: the partitions join the producer's transaction, which opens if it was not. Every partition
     * must exist; if one does not, nothing is added, it gets UNKNOWN_TOPIC_OR_PARTITION and the others
     * OPERATION_NOT_ATTEMPTED (the answer maps topic name to partition to error).
     *
     * @param transactionVersion 2 when a partition leader adds them on a Produce (KIP-890 part 2), else 1; a
     *                           transaction keeps the version it opened with
     */
    public ControllerResult<Map<String, Map<Integer, Errors>>> addPartitions(String transactionalId, long producerId,
                                                                             short producerEpoch,
                                                                             Map<String, List<Integer>> partitions,
                                                                             int transactionVersion, long nowMs) {
        ControllerResult<TransactionMetadata> checked = checkProducer(transactionalId, producerId, producerEpoch);
        if (!checked.isSuccess()) {
            return checked.castFailure();
        }
        TransactionMetadata current = checked.response();
        if (current.state().isPrepare()) {
            return ControllerResult.failed(Errors.CONCURRENT_TRANSACTIONS, "Transactional id " + transactionalId
                    + " is completing its previous transaction (" + current.state().kafkaName() + ")");
        }
        Map<String, Map<Integer, Errors>> answer = new LinkedHashMap<>();
        Set<TopicIdPartition> resolved = new HashSet<>();
        boolean missing = false;
        for (Map.Entry<String, List<Integer>> topic : partitions.entrySet()) {
            UUID topicId = metadata.topicId(topic.getKey());
            int count = topicId == null ? 0 : metadata.partitionCount(topicId);
            Map<Integer, Errors> errors = answer.computeIfAbsent(topic.getKey(), t -> new LinkedHashMap<>());
            for (int partition : topic.getValue()) {
                if (partition < 0 || partition >= count) {
                    errors.put(partition, Errors.UNKNOWN_TOPIC_OR_PARTITION);
                    missing = true;
                } else {
                    errors.put(partition, Errors.NONE);
                    resolved.add(new TopicIdPartition(topicId, partition));
                }
            }
        }
        if (missing) {
            answer.values().forEach(errors -> errors.replaceAll((partition, error) ->
                    error == Errors.NONE ? Errors.OPERATION_NOT_ATTEMPTED : error));
            return ControllerResult.of(List.of(), answer);
        }
        return ControllerResult.of(join(current, resolved, Set.of(), transactionVersion, nowMs), answer);
    }

    /**
     * AddOffsetsToTxn: the group's offsets partition ({@code __consumer_offsets} partition {@code offsetsPartition})
     * joins the transaction, so its commit or abort marker decides the transaction's offsets.
     *
     * @param transactionVersion 2 when TxnOffsetCommit adds the group itself (KIP-890 part 2), else 1
     */
    public ControllerResult<Void> addOffsets(String transactionalId, long producerId, short producerEpoch,
                                             String groupId, String offsetsTopic, int offsetsPartition,
                                             int transactionVersion, long nowMs) {
        ControllerResult<TransactionMetadata> checked = checkProducer(transactionalId, producerId, producerEpoch);
        if (!checked.isSuccess()) {
            return checked.castFailure();
        }
        TransactionMetadata current = checked.response();
        if (current.state().isPrepare()) {
            return ControllerResult.failed(Errors.CONCURRENT_TRANSACTIONS, "Transactional id " + transactionalId
                    + " is completing its previous transaction (" + current.state().kafkaName() + ")");
        }
        UUID topicId = metadata.topicId(offsetsTopic);
        if (topicId == null || offsetsPartition < 0 || offsetsPartition >= metadata.partitionCount(topicId)) {
            return ControllerResult.failed(Errors.COORDINATOR_NOT_AVAILABLE, "The offsets partition " + offsetsTopic
                    + "-" + offsetsPartition + " of group " + groupId + " does not exist yet");
        }
        return ControllerResult.of(join(current, Set.of(new TopicIdPartition(topicId, offsetsPartition)),
                Set.of(groupId), transactionVersion, nowMs), null);
    }

    /**
     * EndTxn: an open transaction moves to PrepareCommit or PrepareAbort, answered once that is committed; its
     * partitions' leaders then write the markers. A retry of a decision already complete is answered NONE; one still
     * writing markers CONCURRENT_TRANSACTIONS; the other decision, or no open transaction, INVALID_TXN_STATE.
     *
     * <p>With {@code bumpEpoch} (EndTxn v5+, a client of transaction protocol version 2, KIP-890 part 2) a version 2
     * transaction is decided at the next epoch, which its markers carry, so a late write of the ended transaction is
     * fenced; the answer is the producer id and epoch to go on with (a new producer id at epoch 0 once the epochs are
     * used up). A retry at the epoch before that bump gets the same answer; with nothing open the epoch is bumped
     * at once by an abort (a commit of nothing is answered as in version 1). Without it, and for a transaction begun
     * with version 1, the epoch stays.
     */
    public ControllerResult<TransactionalProducer> endTransaction(String transactionalId, long producerId,
                                                                  short producerEpoch, boolean commit,
                                                                  boolean bumpEpoch, long nowMs) {
        TransactionMetadata existing = transactionalId == null ? null : metadata.transaction(transactionalId);
        if (bumpEpoch && existing != null && isRetryOfBumpedEnd(existing, producerId, producerEpoch)) {
            boolean same = commit == (existing.state() == TransactionState.PREPARE_COMMIT
                    || existing.state() == TransactionState.COMPLETE_COMMIT);
            return same ? ControllerResult.of(List.of(), continuingProducer(existing))
                    : ControllerResult.failed(Errors.INVALID_TXN_STATE, "Transactional id " + transactionalId
                    + " ended its transaction with the other decision (" + existing.state().kafkaName() + ")");
        }
        ControllerResult<TransactionMetadata> checked = checkProducer(transactionalId, producerId, producerEpoch);
        if (!checked.isSuccess()) {
            return checked.castFailure();
        }
        TransactionMetadata current = checked.response();
        TransactionalProducer unchanged = TransactionalProducer.of(current.producerId(), current.producerEpoch());
        String decision = commit ? "commit" : "abort";
        switch (current.state()) {
            case ONGOING -> {
                if (bumpEpoch && current.transactionVersion() >= TRANSACTION_VERSION_2) {
                    return bumpedEnd(current, commit, nowMs);
                }
                return ControllerResult.of(List.of(record(prepare(current, commit, current.producerEpoch(), nowMs))),
                        unchanged);
            }
            case PREPARE_COMMIT, PREPARE_ABORT -> {
                // A version 2 producer at the bumped epoch ends its next transaction before this one completed.
                boolean same = commit == (current.state() == TransactionState.PREPARE_COMMIT)
                        || (bumpEpoch && current.transactionVersion() >= TRANSACTION_VERSION_2);
                return ControllerResult.failed(same ? Errors.CONCURRENT_TRANSACTIONS : Errors.INVALID_TXN_STATE,
                        "Transactional id " + transactionalId + " is in " + current.state().kafkaName()
                                + "; cannot " + decision);
            }
            default -> {
                if (bumpEpoch && !commit) {
                    // A version 2 producer aborts a transaction none of whose writes reached a partition.
                    return bumpedEnd(current, false, nowMs);
                }
                boolean complete = current.state() == TransactionState.COMPLETE_COMMIT
                        || current.state() == TransactionState.COMPLETE_ABORT;
                if (complete && commit == (current.state() == TransactionState.COMPLETE_COMMIT)) {
                    return ControllerResult.of(List.of(), unchanged);
                }
                return ControllerResult.failed(Errors.INVALID_TXN_STATE, "Transactional id " + transactionalId
                        + " has no open transaction to " + decision + " (" + current.state().kafkaName() + ")");
            }
        }
    }

    /** {@link #addPartitions(String, long, short, Map, int, long)} by the producer itself (version 1). */
    public ControllerResult<Map<String, Map<Integer, Errors>>> addPartitions(String transactionalId, long producerId,
                                                                             short producerEpoch,
                                                                             Map<String, List<Integer>> partitions,
                                                                             long nowMs) {
        return addPartitions(transactionalId, producerId, producerEpoch, partitions, 1, nowMs);
    }

    /** {@link #addOffsets(String, long, short, String, String, int, int, long)} by AddOffsetsToTxn (version 1). */
    public ControllerResult<Void> addOffsets(String transactionalId, long producerId, short producerEpoch,
                                             String groupId, String offsetsTopic, int offsetsPartition, long nowMs) {
        return addOffsets(transactionalId, producerId, producerEpoch, groupId, offsetsTopic, offsetsPartition, 1,
                nowMs);
    }

    /** {@link #endTransaction(String, long, short, boolean, boolean, long)} of a version 1 client (no bump). */
    public ControllerResult<TransactionalProducer> endTransaction(String transactionalId, long producerId,
                                                                  short producerEpoch, boolean commit, long nowMs) {
        return endTransaction(transactionalId, producerId, producerEpoch, commit, false, nowMs);
    }

    /**
     * A leader wrote markers: once every partition of the transaction has reported (or its topic is gone), the
     * transaction completes. A report for another producer epoch or decision than the current one is stale and
     * changes nothing.
     */
    public ControllerResult<Void> markersWritten(TransactionMarkersWritten report, long nowMs) {
        TransactionMetadata current = metadata.transaction(report.transactionalId());
        if (current == null || !current.state().isPrepare() || current.producerId() != report.producerId()
                || current.producerEpoch() != report.producerEpoch()
                || report.commit() != (current.state() == TransactionState.PREPARE_COMMIT)) {
            return ControllerResult.of(List.of(), null);
        }
        Set<TopicIdPartition> done = reported.computeIfAbsent(report.transactionalId(), id -> new HashSet<>());
        for (TopicIdPartition partition : report.partitions()) {
            if (current.partitions().contains(partition)) {
                done.add(partition);
            }
        }
        return ControllerResult.of(completeIfDone(current, nowMs), null);
    }

    /**
     * Acts on every deadline up to {@code nowMs} (at most {@link #MAX_EXPIRED_PER_BATCH}): an open transaction past its
     * timeout is aborted at a bumped epoch (so its producer is fenced), an idle id past
     * transactional.id.expiration.ms is removed, and a transaction writing markers is checked for partitions whose
     * topic was deleted. Answers the ids acted on.
     */
    public ControllerResult<List<String>> expire(long nowMs) {
        List<MetadataRecord> records = new ArrayList<>();
        List<String> acted = new ArrayList<>();
        List<Deadline> rearm = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        for (Deadline deadline : deadlines) {
            if (deadline.deadlineMs() > nowMs || acted.size() >= MAX_EXPIRED_PER_BATCH) {
                break;
            }
            TransactionMetadata state = metadata.transaction(deadline.transactionalId());
            if (state == null) {
                gone.add(deadline.transactionalId());
                continue;
            }
            switch (state.state()) {
                case ONGOING -> {
                    records.add(record(prepare(state, false, bumpedEpochOrSame(state), nowMs)));
                    acted.add(state.transactionalId());
                }
                case PREPARE_COMMIT, PREPARE_ABORT -> {
                    List<MetadataRecord> completion = completeIfDone(state, nowMs);
                    if (completion.isEmpty()) {
                        rearm.add(new Deadline(nowMs + state.timeoutMs(), state.transactionalId()));
                    } else {
                        records.addAll(completion);
                        acted.add(state.transactionalId());
                    }
                }
                default -> {
                    records.add(MetadataRecords.of(RemoveTransactionRecord.newBuilder()
                            .setTransactionalId(state.transactionalId()).build()));
                    acted.add(state.transactionalId());
                }
            }
        }
        rearm.forEach(this::setDeadline);
        gone.forEach(this::clearDeadline);
        return ControllerResult.of(records, acted);
    }

    /** The earliest deadline {@link #expire} acts on, Long.MAX_VALUE if none (wall-clock ms). */
    public long nextDeadlineMs() {
        return deadlines.isEmpty() ? Long.MAX_VALUE : deadlines.first().deadlineMs();
    }

    // ---- index upkeep (from the view's entity changes) -------------------------------------------------------

    void transactionChanged(TransactionMetadata before, TransactionMetadata after) {
        String id = after != null ? after.transactionalId() : before.transactionalId();
        if (after == null) {
            clearDeadline(id);
            reported.remove(id);
            return;
        }
        if (!after.state().isPrepare() || before == null || before.state() != after.state()
                || before.producerEpoch() != after.producerEpoch() || before.producerId() != after.producerId()) {
            reported.remove(id);
        }
        long deadlineMs = switch (after.state()) {
            case ONGOING -> after.startTimeMs() + after.timeoutMs();
            case PREPARE_COMMIT, PREPARE_ABORT -> after.updateTimeMs() + after.timeoutMs();
            default -> after.updateTimeMs() + settings.idExpirationMs();
        };
        setDeadline(new Deadline(deadlineMs, id));
    }

    private void setDeadline(Deadline deadline) {
        clearDeadline(deadline.transactionalId());
        deadlines.add(deadline);
        deadlineById.put(deadline.transactionalId(), deadline);
    }

    private void clearDeadline(String transactionalId) {
        Deadline previous = deadlineById.remove(transactionalId);
        if (previous != null) {
            deadlines.remove(previous);
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private ControllerResult<TransactionMetadata> checkProducer(String transactionalId, long producerId,
                                                                short producerEpoch) {
        TransactionMetadata current = transactionalId == null ? null : metadata.transaction(transactionalId);
        if (current == null) {
            return ControllerResult.failed(Errors.INVALID_PRODUCER_ID_MAPPING, "Unknown transactional id "
                    + transactionalId);
        }
        if (current.state().isPrepare() && current.nextProducerId() == producerId && producerEpoch == 0) {
            // Version 2: the producer already has the producer id its decided transaction moves the id to.
            return ControllerResult.failed(Errors.CONCURRENT_TRANSACTIONS, "Transactional id " + transactionalId
                    + " is completing its previous transaction (" + current.state().kafkaName() + ")");
        }
        if (current.producerId() != producerId) {
            return ControllerResult.failed(Errors.INVALID_PRODUCER_ID_MAPPING, "Transactional id " + transactionalId
                    + " has producer id " + current.producerId() + ", not " + producerId);
        }
        if (current.producerEpoch() != producerEpoch) {
            return ControllerResult.failed(Errors.PRODUCER_FENCED, "Transactional id " + transactionalId
                    + " is at producer epoch " + current.producerEpoch() + "; epoch " + producerEpoch
                    + " has been fenced");
        }
        return ControllerResult.of(List.of(), current);
    }

    /** The records opening or growing the transaction by what is not in it yet (none if nothing is new). */
    private List<MetadataRecord> join(TransactionMetadata current, Set<TopicIdPartition> partitions,
                                      Set<String> groups, int transactionVersion, long nowMs) {
        boolean open = current.state() == TransactionState.ONGOING;
        Set<TopicIdPartition> newPartitions = new HashSet<>(partitions);
        Set<String> newGroups = new HashSet<>(groups);
        if (open) {
            newPartitions.removeAll(current.partitions());
            newGroups.removeAll(current.groups());
            if (newPartitions.isEmpty() && newGroups.isEmpty()) {
                return List.of();
            }
        }
        TransactionMetadata ongoing = new TransactionMetadata(current.transactionalId(), current.producerId(),
                current.producerEpoch(), current.previousProducerId(), current.previousProducerEpoch(),
                current.timeoutMs(), TransactionState.ONGOING, Set.of(), Set.of(),
                open ? current.startTimeMs() : nowMs, nowMs, 0,
                open ? current.transactionVersion() : transactionVersion, -1L);
        return List.of(MetadataRecords.of(ongoing.toRecordBuilder(newPartitions, newGroups).build()));
    }

    /**
     * Version 2's end: the transaction decided at the next epoch (which its markers carry), or, with nothing open,
     * completed at once at it. Past the last epoch, the id moves on to a new producer id at epoch 0: a decided
     * transaction keeps its producer id at epoch 32767 for its markers and names the new one, which it takes when it
     * completes.
     */
    private ControllerResult<TransactionalProducer> bumpedEnd(TransactionMetadata current, boolean commit,
                                                              long nowMs) {
        List<MetadataRecord> records = new ArrayList<>();
        short epoch = (short) (current.producerEpoch() + 1);
        long nextProducerId = -1L;
        if (current.producerEpoch() >= MAX_PRODUCER_EPOCH) {
            nextProducerId = metadata.nextProducerId();
            records.add(nextProducerIdRecord(nextProducerId + 1));
        }
        TransactionMetadata ended;
        if (current.state() == TransactionState.ONGOING) {
            ended = new TransactionMetadata(current.transactionalId(), current.producerId(), epoch,
                    current.producerId(), current.producerEpoch(), current.timeoutMs(),
                    commit ? TransactionState.PREPARE_COMMIT : TransactionState.PREPARE_ABORT, current.partitions(),
                    current.groups(), current.startTimeMs(), nowMs, 0, TRANSACTION_VERSION_2, nextProducerId);
        } else {
            boolean rolled = nextProducerId >= 0;
            ended = new TransactionMetadata(current.transactionalId(), rolled ? nextProducerId : current.producerId(),
                    rolled ? 0 : epoch, current.producerId(), current.producerEpoch(), current.timeoutMs(),
                    commit ? TransactionState.COMPLETE_COMMIT : TransactionState.COMPLETE_ABORT, Set.of(), Set.of(),
                    -1L, nowMs, 0, TRANSACTION_VERSION_2, -1L);
        }
        records.add(record(ended));
        return ControllerResult.of(records, continuingProducer(ended));
    }

    /** Whether an EndTxn at this producer id and epoch is a retry of a version 2 end that already bumped them. */
    private static boolean isRetryOfBumpedEnd(TransactionMetadata current, long producerId, short producerEpoch) {
        boolean ended = current.state().isPrepare() || current.state() == TransactionState.COMPLETE_COMMIT
                || current.state() == TransactionState.COMPLETE_ABORT;
        return ended && current.transactionVersion() >= TRANSACTION_VERSION_2
                && current.previousProducerId() == producerId && current.previousProducerEpoch() == producerEpoch;
    }

    /** The producer id and epoch a version 2 producer goes on with after this end. */
    private static TransactionalProducer continuingProducer(TransactionMetadata ended) {
        return ended.nextProducerId() >= 0 ? TransactionalProducer.of(ended.nextProducerId(), (short) 0)
                : TransactionalProducer.of(ended.producerId(), ended.producerEpoch());
    }

    /**
     * The open transaction decided: its partitions stay, the epoch is {@code epoch} (bumped when fencing). Written as
     * version 1: a fencing bump must never look like a version 2 end the fenced producer could claim by a retry.
     */
    private static TransactionMetadata prepare(TransactionMetadata current, boolean commit, short epoch, long nowMs) {
        boolean bumped = epoch != current.producerEpoch();
        return new TransactionMetadata(current.transactionalId(), current.producerId(), epoch,
                bumped ? current.producerId() : current.previousProducerId(),
                bumped ? current.producerEpoch() : current.previousProducerEpoch(), current.timeoutMs(),
                commit ? TransactionState.PREPARE_COMMIT : TransactionState.PREPARE_ABORT, current.partitions(),
                current.groups(), current.startTimeMs(), nowMs, 0);
    }

    private static short bumpedEpochOrSame(TransactionMetadata current) {
        return current.producerEpoch() < MAX_PRODUCER_EPOCH ? (short) (current.producerEpoch() + 1)
                : current.producerEpoch();
    }

    private List<MetadataRecord> completeIfDone(TransactionMetadata current, long nowMs) {
        Set<TopicIdPartition> done = reported.getOrDefault(current.transactionalId(), Set.of());
        for (TopicIdPartition partition : current.partitions()) {
            if (!done.contains(partition) && metadata.partition(partition.topicId(), partition.partition()) != null) {
                return List.of();
            }
        }
        // A version 2 end that used up the epochs moves the id to its next producer id now.
        boolean rolled = current.nextProducerId() >= 0;
        TransactionMetadata complete = new TransactionMetadata(current.transactionalId(),
                rolled ? current.nextProducerId() : current.producerId(), rolled ? 0 : current.producerEpoch(),
                current.previousProducerId(), current.previousProducerEpoch(),
                current.timeoutMs(), current.state() == TransactionState.PREPARE_COMMIT
                        ? TransactionState.COMPLETE_COMMIT : TransactionState.COMPLETE_ABORT,
                Set.of(), Set.of(), -1L, nowMs, 0, current.transactionVersion(), -1L);
        return List.of(record(complete));
    }

    /** The record of a state with no partitions or groups added (a new state; Ongoing's partitions stay). */
    private static MetadataRecord record(TransactionMetadata state) {
        return MetadataRecords.of(state.toRecordBuilder(Set.of(), Set.of()).build());
    }

    private MetadataRecord nextProducerIdRecord(long nextProducerId) {
        return MetadataRecords.of(ProducerIdsRecord.newBuilder().setBrokerId(-1).setBrokerEpoch(-1)
                .setNextProducerId(nextProducerId).build());
    }
}
