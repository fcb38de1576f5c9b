package io.kraft.broker.group;

import io.kraft.broker.concurrent.ExecutorShutdown;
import io.kraft.broker.replica.Partition;
import io.kraft.broker.replica.PartitionProduceResult;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogReadResult;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.log.producer.ProducerStateEntry;
import io.kraft.storage.record.BatchIterator;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.ControlRecordType;
import io.kraft.storage.record.CorruptRecordException;
import io.kraft.storage.record.EndTransactionMarker;
import io.kraft.storage.record.Record;
import io.kraft.storage.record.RecordBatch;
import io.kraft.storage.record.RecordBatchBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A coordinator's internal-topic partitions ({@code __consumer_offsets}, {@code __share_group_state}) through the broker's {@link ReplicaManager}: appends
 * go in as one uncompressed batch with acks=all (answered when the high watermark passes it), transactional ones
 * with their producer's id and epoch; loads read a partition's log from its start to its end on a loader thread,
 * markers included. As leader this broker's log is the truth: a leader
 * never truncates, and a new leader's high watermark lags records the old leader already acknowledged (it
 * learns the committed point only from its followers' next fetches), so stopping at it would lose commits.
 */
public final class ReplicaCoordinatorLog implements CoordinatorLog, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaCoordinatorLog.class);
    private static final short ACKS_ALL = -1;
    private static final int READ_CHUNK_BYTES = 4 * 1024 * 1024;
    private static final int MAX_BATCH_BYTES = Integer.MAX_VALUE;

    private final ReplicaManager replicas;
    private final String topic;
    private final long appendTimeoutMs;
    private final LongSupplier clockMs;
    private final ExecutorService loader;

    public ReplicaCoordinatorLog(ReplicaManager replicas, long appendTimeoutMs, LongSupplier clockMs) {
        this(replicas, OffsetsTopic.NAME, "kraft-group-loader", appendTimeoutMs, clockMs);
    }

    /** The partitions of {@code topic}, loaded on a thread named {@code loaderName}. */
    public ReplicaCoordinatorLog(ReplicaManager replicas, String topic, String loaderName, long appendTimeoutMs,
                                 LongSupplier clockMs) {
        this.replicas = Objects.requireNonNull(replicas, "replicas");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.appendTimeoutMs = appendTimeoutMs;
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
        this.loader = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, loaderName);
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public CompletableFuture<Void> append(int partition, int leaderEpoch, List<CoordinatorRecord> records) {
        TopicPartition tp = new TopicPartition(topic, partition);
        Partition hosted = ledPartition(tp, leaderEpoch);
        if (hosted == null) {
            return notLeader(tp, leaderEpoch);
        }
        return append(tp, builder(records.size()), records, ReplicaCoordinatorLog::toGroupError);
    }

    /**
     * The batch carries the producer's id and epoch, so the log fences an older epoch. Its sequence continues the
     * producer's last one in this partition: only this coordinator (on its one thread) writes a producer's batches to
     * an internal topic, and the log appends synchronously, so nothing can come between reading and appending.
     */
    @Override
    public CompletableFuture<Void> appendTransactional(int partition, int leaderEpoch, long producerId,
                                                       short producerEpoch, List<CoordinatorRecord> records) {
        TopicPartition tp = new TopicPartition(topic, partition);
        Partition hosted = ledPartition(tp, leaderEpoch);
        if (hosted == null) {
            return notLeader(tp, leaderEpoch);
        }
        Optional<ProducerStateEntry> producer = hosted.log().producerState(producerId);
        int sequence = producer.isPresent() && producer.get().producerEpoch() == producerEpoch
                ? producer.get().nextSequence() : 0;
        RecordBatchBuilder builder = builder(records.size()).producer(producerId, producerEpoch, sequence)
                .transactional(true);
        return append(tp, builder, records, ReplicaCoordinatorLog::toTransactionalError);
    }

    private Partition ledPartition(TopicPartition tp, int leaderEpoch) {
        Partition hosted = replicas.partition(tp).orElse(null);
        return hosted == null || !hosted.isLeader() || hosted.leaderEpoch() != leaderEpoch ? null : hosted;
    }

    private static CompletableFuture<Void> notLeader(TopicPartition tp, int leaderEpoch) {
        return CompletableFuture.failedFuture(new CoordinatorLogException(Errors.NOT_COORDINATOR,
                "this broker no longer leads " + tp + " at leader epoch " + leaderEpoch));
    }

    private CompletableFuture<Void> append(TopicPartition tp, RecordBatchBuilder builder,
                                           List<CoordinatorRecord> records, UnaryOperator<Errors> toClientError) {
        long nowMs = clockMs.getAsLong();
        for (CoordinatorRecord record : records) {
            builder.append(nowMs, CoordinatorRecordCodec.encodeKey(record), CoordinatorRecordCodec.encodeValue(record));
        }
        ByteBuffer batch = builder.build();
        return replicas.appendRecords(appendTimeoutMs, ACKS_ALL, true, Map.of(tp, batch)).thenApply(results -> {
            PartitionProduceResult result = results.get(tp);
            if (result.error() != Errors.NONE) {
                throw new CompletionException(new CoordinatorLogException(toClientError.apply(result.error()),
                        "append to " + tp + " failed with " + result.error() + ": " + result.errorMessage()));
            }
            return null;
        });
    }

    private static RecordBatchBuilder builder(int recordCount) {
        int estimateBytes = RecordBatch.HEADER_SIZE + 64 * recordCount;
        return new RecordBatchBuilder(ByteBuffer.allocate(estimateBytes), CompressionType.NONE, 0);
    }

    /** A transactional write's errors: the producer's own (fenced epoch, open transaction state) pass through. */
    static Errors toTransactionalError(Errors error) {
        return switch (error) {
            case INVALID_PRODUCER_EPOCH, PRODUCER_FENCED, INVALID_TXN_STATE -> error;
            default -> toGroupError(error);
        };
    }

    /** Kafka's mapping of a failed coordinator write to what the client should do next. */
    static Errors toGroupError(Errors error) {
        return switch (error) {
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR, FENCED_LEADER_EPOCH -> Errors.NOT_COORDINATOR;
            case MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE -> Errors.INVALID_COMMIT_OFFSET_SIZE;
            default -> Errors.COORDINATOR_NOT_AVAILABLE;
        };
    }

    @Override
    public CompletableFuture<List<CoordinatorLogEntry>> readAll(int partition) {
        return CompletableFuture.supplyAsync(() -> read(new TopicPartition(topic, partition)), loader);
    }

    private List<CoordinatorLogEntry> read(TopicPartition tp) {
        Partition hosted = replicas.partition(tp).orElseThrow(() -> new CoordinatorLogException(
                Errors.NOT_COORDINATOR, "this broker does not host " + tp));
        Log log = hosted.log();
        List<CoordinatorLogEntry> entries = new ArrayList<>();
        long offset = log.logStartOffset();
        long endOffset = log.logEndOffset();
        int skipped = 0;
        while (offset < endOffset) {
            LogReadResult read = log.read(offset, READ_CHUNK_BYTES, endOffset, true);
            ByteBuffer bytes;
            try {
                bytes = read.records().readFully();
            } catch (IOException e) {
                throw new UncheckedIOException("reading " + tp + " at offset " + offset, e);
            }
            if (!bytes.hasRemaining()) {
                break;
            }
            for (RecordBatch batch : BatchIterator.batches(bytes, MAX_BATCH_BYTES)) {
                offset = batch.nextOffset();
                if (batch.isControl()) {
                    if (batch.producerId() >= 0) {
                        try {
                            EndTransactionMarker marker = EndTransactionMarker.fromBatch(batch);
                            entries.add(new CoordinatorLogEntry.Marker(batch.producerId(),
                                    marker.type() == ControlRecordType.COMMIT));
                        } catch (CorruptRecordException e) {
                            skipped++;
                            LOG.warn("Skipping control batch at offset {} of {}: {}", batch.baseOffset(), tp,
                                    e.getMessage());
                        }
                    }
                    continue;
                }
                List<CoordinatorRecord> records = new ArrayList<>(batch.recordCount());
                for (Record record : batch.records()) {
                    try {
                        records.add(CoordinatorRecordCodec.decode(record.hasKey() ? record.key() : null,
                                record.hasValue() ? record.value() : null));
                    } catch (CorruptCoordinatorRecordException e) {
                        skipped++;
                        LOG.warn("Skipping record at offset {} of {}: {}", record.offset(), tp, e.getMessage());
                    }
                }
                entries.add(new CoordinatorLogEntry.Records(
                        batch.isTransactional() ? batch.producerId() : CoordinatorLogEntry.NO_PRODUCER, records));
            }
        }
        if (skipped > 0) {
            LOG.warn("Loaded {} with {} unreadable records skipped", tp, skipped);
        }
        return entries;
    }

    @Override
    public void close() {
        ExecutorShutdown.now(loader, Duration.ofSeconds(5));
    }
}
