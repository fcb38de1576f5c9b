package io.kraft.broker.replica;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.AppendInfo;
import io.kraft.storage.log.InvalidRecordException;
import io.kraft.storage.log.RecordError;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.log.producer.DuplicateSequenceException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader side of every write to partitions: a producer's batches and the coordinator's transaction markers
 * alike. Each partition is written on its own (one failing does not stop the others), long polls on a written
 * partition are woken, and with acks=all the answer waits as a {@link DelayedProduce} until the high watermark
 * passes every write.
 */
final class LeaderAppends {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderAppends.class);

    /** One partition's write as leader. */
    @FunctionalInterface
    interface Write<V> {
        LogAppendResult apply(TopicPartition tp, Partition partition, V entry, long nowMs);
    }

    /** The hosted partition or the error a request for it gets (see {@link ReplicaManager#partitionOrError}). */
    private final Function<TopicPartition, Partition> partitionOrError;
    private final Function<TopicPartition, Optional<Partition>> hosted;
    /** Whether the partition's log directory failed (its requests get KAFKA_STORAGE_ERROR). */
    private final Predicate<TopicPartition> inFailedLogDir;
    private final DelayedOperationPurgatory<TopicPartition> producePurgatory;
    private final DelayedOperationPurgatory<TopicPartition> fetchPurgatory;
    private final LongSupplier clock;

    LeaderAppends(Function<TopicPartition, Partition> partitionOrError,
                  Function<TopicPartition, Optional<Partition>> hosted, Predicate<TopicPartition> inFailedLogDir,
                  DelayedOperationPurgatory<TopicPartition> producePurgatory,
                  DelayedOperationPurgatory<TopicPartition> fetchPurgatory, LongSupplier clock) {
        this.partitionOrError = partitionOrError;
        this.hosted = hosted;
        this.inFailedLogDir = inFailedLogDir;
        this.producePurgatory = producePurgatory;
        this.fetchPurgatory = fetchPurgatory;
        this.clock = clock;
    }

    /**
     * A producer's batches (see {@link ReplicaManager#appendRecords}): INVALID_REQUIRED_ACKS for acks other than 0, 1
     * or -1, INVALID_TOPIC_EXCEPTION for an internal topic unless {@code internalTopicsAllowed}.
     */
    CompletableFuture<Map<TopicPartition, PartitionProduceResult>> appendProduce(
            long timeoutMs, short requiredAcks, boolean internalTopicsAllowed, Map<TopicPartition, ByteBuffer> entries) {
        if (requiredAcks != 0 && requiredAcks != 1 && requiredAcks != -1) {
            Map<TopicPartition, PartitionProduceResult> results = new LinkedHashMap<>();
            entries.keySet().forEach(tp -> results.put(tp, PartitionProduceResult.failed(Errors.INVALID_REQUIRED_ACKS,
                    "acks must be 0, 1 or -1 (all), got " + requiredAcks)));
            return CompletableFuture.completedFuture(results);
        }
        return append(timeoutMs, requiredAcks, entries, (tp, partition, records, nowMs) -> {
            if (ReplicaManager.INTERNAL_TOPICS.contains(tp.topic()) && !internalTopicsAllowed) {
                throw new ReplicaException(Errors.INVALID_TOPIC_EXCEPTION,
                        "clients may not produce to the internal topic " + tp.topic());
            }
            return partition.appendAsLeader(records, requiredAcks, nowMs);
        });
    }

    /**
     * A transaction's markers (see {@link ReplicaManager#writeTxnMarkers}), each partition's error once committed;
     * the listeners hear of every marker written.
     */
    CompletableFuture<Map<TopicPartition, Errors>> writeTxnMarkers(TxnMarker marker, long timeoutMs,
                                                                   List<TxnMarkerListener> listeners) {
        Map<TopicPartition, TxnMarker> entries = new LinkedHashMap<>();
        marker.partitions().forEach(tp -> entries.put(tp, marker));
        if (marker.producerId() < 0 || marker.producerEpoch() < 0) {
            Map<TopicPartition, Errors> refused = new LinkedHashMap<>();
            entries.keySet().forEach(tp -> refused.put(tp, Errors.INVALID_REQUEST));
            return CompletableFuture.completedFuture(refused);
        }
        return append(timeoutMs, (short) -1, entries, (tp, partition, txn, nowMs) ->
                partition.appendTxnMarker(txn.producerId(), txn.producerEpoch(), txn.endMarker(), nowMs)
        ).thenApply(results -> {
            Map<TopicPartition, Errors> errors = new LinkedHashMap<>();
            results.forEach((tp, result) -> errors.put(tp, result.error()));
            errors.forEach((tp, error) -> {
                if (error == Errors.NONE) {
                    listeners.forEach(listener -> listener.onMarkerWritten(tp, marker));
                }
            });
            LOG.debug("Wrote {} markers of producer {} epoch {} (coordinator epoch {}): {}", marker.result(),
                    marker.producerId(), marker.producerEpoch(), marker.coordinatorEpoch(), errors);
            return errors;
        });
    }

    /**
     * Writes each entry to its partition as leader. acks 0 and 1 answer once written; acks=all (-1) answers when
     * the high watermark passes every write, or at {@code timeoutMs} with REQUEST_TIMED_OUT. Never fails as a whole.
     */
    <V> CompletableFuture<Map<TopicPartition, PartitionProduceResult>> append(long timeoutMs, short requiredAcks,
                                                                             Map<TopicPartition, V> entries,
                                                                             Write<V> write) {
        Map<TopicPartition, PartitionProduceResult> results = new LinkedHashMap<>();
        long nowMs = clock.getAsLong();
        Map<TopicPartition, Long> waitFor = new LinkedHashMap<>();
        List<TopicPartition> written = new ArrayList<>();
        List<TopicPartition> highWatermarkMoved = new ArrayList<>();
        for (Map.Entry<TopicPartition, V> entry : entries.entrySet()) {
            TopicPartition tp = entry.getKey();
            Partition partition = null;
            try {
                partition = partitionOrError.apply(tp);
                LogAppendResult appended = write.apply(tp, partition, entry.getValue(), nowMs);
                AppendInfo info = appended.info();
                results.put(tp, PartitionProduceResult.succeeded(info.firstOffset(), info.logAppendTimeMs(),
                        partition.logStartOffset()));
                if (!info.duplicate()) {
                    written.add(tp);
                }
                if (appended.highWatermarkIncreased()) {
                    highWatermarkMoved.add(tp);
                }
                if (requiredAcks == -1) {
                    waitFor.put(tp, info.lastOffset() + 1);
                }
            } catch (DuplicateSequenceException e) {
                results.put(tp, failure(tp, partition, e));
                if (requiredAcks == -1 && e.writtenBelowOffset() >= 0) {
                    // The producer takes DUPLICATE_SEQUENCE_NUMBER as a success: as for acks=all, only once the
                    // retried records (written before this leader's cached batches) are replicated.
                    waitFor.put(tp, e.writtenBelowOffset());
                }
            } catch (RuntimeException e) {
                results.put(tp, failure(tp, partition, e));
            }
        }
        for (TopicPartition tp : written) {
            // New data, or a marker that moved the last stable offset: long polls re-check.
            fetchPurgatory.checkAndComplete(tp);
        }
        for (TopicPartition tp : highWatermarkMoved) {
            producePurgatory.checkAndComplete(tp);
        }
        if (waitFor.isEmpty()) {
            return CompletableFuture.completedFuture(results);
        }
        CompletableFuture<Map<TopicPartition, PartitionProduceResult>> answer = new CompletableFuture<>();
        DelayedProduce delayed = new DelayedProduce(timeoutMs, results, waitFor, hosted, inFailedLogDir,
                answer::complete);
        producePurgatory.tryCompleteElseWatch(delayed, waitFor.keySet());
        return answer;
    }

    private PartitionProduceResult failure(TopicPartition tp, Partition partition, RuntimeException e) {
        Errors error = Errors.forException(e);
        if (partition != null && hosted.apply(tp).orElse(null) != partition) {
            // The partition was removed or replaced while the append ran (its log may be closed): its directory failed,
            // maybe on this very append (KAFKA_STORAGE_ERROR, as every request for it now gets), or it moved away.
            error = inFailedLogDir.test(tp) ? Errors.KAFKA_STORAGE_ERROR : Errors.NOT_LEADER_OR_FOLLOWER;
        }
        if (error == Errors.UNKNOWN_SERVER_ERROR) {
            LOG.error("Append to {} failed", tp, e);
        } else {
            LOG.debug("Append to {} failed with {}: {}", tp, error, e.getMessage());
        }
        // The log names the records at fault while it validates them (KIP-467).
        List<RecordError> recordErrors = e instanceof InvalidRecordException invalid && invalid.error() == error
                ? invalid.recordErrors() : List.of();
        return PartitionProduceResult.failed(error, e.getMessage(), recordErrors);
    }
}
