package io.kraft.broker.txn;

import io.kraft.metadata.controller.TransactionMarkersWritten;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.image.TransactionMetadata;
import io.kraft.metadata.image.TransactionState;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A partition leader's part in ending transactions. It learns from each metadata image which transactions are decided
 * (PrepareCommit/PrepareAbort), writes their markers into the partitions this broker leads, and reports those
 * partitions to the controller, which completes a transaction once every partition is reported. Until the image shows
 * the transaction complete it keeps going: partitions whose leadership moved here are written, failed writes are tried
 * again, and the report is repeated every {@code reportIntervalMs} (a new active controller after a failover has not
 * heard the earlier reports). A marker written twice for one producer epoch is harmless: the log's producer state has
 * no open transaction left for the second.
 *
 * <p>Its state is owned by one thread, {@code kraft-txn-markers-<id>}; the publisher thread only hands it changes.
 */
public final class TransactionMarkerPublisher implements MetadataPublisher, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionMarkerPublisher.class);

    /** One decided transaction this broker may have markers to write for. */
    private static final class Pending {
        final TransactionMetadata txn;
        final Set<TopicIdPartition> written = new HashSet<>();
        boolean writing;
        long nextReportMs;

        Pending(TransactionMetadata txn) {
            this.txn = txn;
        }
    }

    private final int brokerId;
    private final LongSupplier brokerEpoch;
    private final TransactionMarkerReports reports;
    private final TransactionMarkerWriter writer;
    private final long reportIntervalMs;
    private final LongSupplier clockMs;
    private final ScheduledExecutorService executor;
    private final long retryIntervalMs;
    /** The periodic retry, running only while a transaction is pending; owned by the executor's thread. */
    private ScheduledFuture<?> retries;
    private volatile MetadataImage image = MetadataImage.EMPTY;
    /** Owned by the executor's thread. */
    private final Map<String, Pending> pending = new HashMap<>();

    /**
     * @param retryIntervalMs  how often partitions still to write are tried again
     * @param reportIntervalMs how often written partitions are reported again while the transaction is not complete
     */
    public TransactionMarkerPublisher(int brokerId, LongSupplier brokerEpoch, TransactionMarkerReports reports,
                                      TransactionMarkerWriter writer, long retryIntervalMs, long reportIntervalMs,
                                      LongSupplier clockMs) {
        this.brokerId = brokerId;
        this.brokerEpoch = Objects.requireNonNull(brokerEpoch, "brokerEpoch");
        this.reports = Objects.requireNonNull(reports, "reports");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.reportIntervalMs = reportIntervalMs;
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "kraft-txn-markers-" + brokerId);
            thread.setDaemon(true);
            return thread;
        });
        this.retryIntervalMs = retryIntervalMs;
    }

    @Override
    public void publish(MetadataDelta delta, MetadataImage newImage) {
        image = newImage;
        if (!delta.hasTransactionChanges()) {
            if (delta.hasTopicChanges()) {
                // A leadership that moved here may have markers waiting.
                run(this::process);
            }
            return;
        }
        Map<String, TransactionMetadata> changes = new HashMap<>(delta.transactionsDelta().changes());
        run(() -> {
            changes.forEach(this::transactionChanged);
            process();
        });
    }

    /** Runs work on the executor; once this publisher is closed (the broker stopping) there is nothing left to do. */
    private void run(Runnable work) {
        try {
            executor.execute(work);
        } catch (RejectedExecutionException closed) {
            LOG.debug("Broker {} no longer writes transaction markers: closed", brokerId);
        }
    }

    private void transactionChanged(String transactionalId, TransactionMetadata after) {
        if (after == null || !after.state().isPrepare()) {
            pending.remove(transactionalId);
            return;
        }
        Pending current = pending.get(transactionalId);
        if (current == null || !sameDecision(current.txn, after)) {
            pending.put(transactionalId, new Pending(after));
        }
    }

    private static boolean sameDecision(TransactionMetadata a, TransactionMetadata b) {
        return a.producerId() == b.producerId() && a.producerEpoch() == b.producerEpoch() && a.state() == b.state();
    }

    /** Writes what is due and repeats reports that are due (on the executor's thread). */
    private void process() {
        MetadataImage current = image;
        long nowMs = clockMs.getAsLong();
        for (Pending p : List.copyOf(pending.values())) {
            if (p.writing) {
                continue;
            }
            Map<TopicPartition, TopicIdPartition> toWrite = new LinkedHashMap<>();
            for (TopicIdPartition partition : p.txn.partitions()) {
                if (p.written.contains(partition)) {
                    continue;
                }
                TopicImage topic = current.topics().topic(partition.topicId());
                PartitionRegistration registration = topic == null ? null : topic.partition(partition.partition());
                if (registration != null && registration.leader() == brokerId) {
                    toWrite.put(new TopicPartition(topic.name(), partition.partition()), partition);
                }
            }
            if (!toWrite.isEmpty()) {
                write(p, toWrite);
            } else if (!p.written.isEmpty() && nowMs >= p.nextReportMs) {
                report(p, nowMs);
            }
        }
        retryWhilePending();
    }

    /**
     * Keeps the periodic retry running while a transaction is pending and stops it once none is: an idle broker's
     * thread then sleeps instead of waking ten times a second to find nothing. Every change of the pending
     * transactions is followed by {@link #process}, which calls this.
     */
    private void retryWhilePending() {
        if (pending.isEmpty()) {
            if (retries != null) {
                retries.cancel(false);
                retries = null;
            }
        } else if (retries == null) {
            try {
                retries = executor.scheduleWithFixedDelay(this::process, retryIntervalMs, retryIntervalMs,
                        TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closed) {
                LOG.debug("Broker {} no longer retries transaction markers: closed", brokerId);
            }
        }
    }

    private void write(Pending p, Map<TopicPartition, TopicIdPartition> toWrite) {
        p.writing = true;
        boolean commit = p.txn.state() == TransactionState.PREPARE_COMMIT;
        writer.writeMarkers(p.txn.producerId(), p.txn.producerEpoch(), p.txn.coordinatorEpoch(), commit,
                        List.copyOf(toWrite.keySet()))
                .whenComplete((errors, failure) -> run(() -> {
                    p.writing = false;
                    if (failure != null) {
                        LOG.warn("Broker {} could not write {} markers of transactional id {}: {}", brokerId,
                                commit ? "COMMIT" : "ABORT", p.txn.transactionalId(), failure.toString());
                        return;
                    }
                    List<TopicPartition> failed = new ArrayList<>();
                    errors.forEach((partition, error) -> {
                        if (error == Errors.NONE) {
                            p.written.add(toWrite.get(partition));
                        } else {
                            failed.add(partition);
                        }
                    });
                    if (!failed.isEmpty()) {
                        LOG.info("Broker {} will retry {} markers of transactional id {} for {}: {}", brokerId,
                                commit ? "COMMIT" : "ABORT", p.txn.transactionalId(), failed, errors);
                    }
                    if (pending.get(p.txn.transactionalId()) == p && !p.written.isEmpty()) {
                        report(p, clockMs.getAsLong());
                    }
                }));
    }

    private void report(Pending p, long nowMs) {
        p.nextReportMs = nowMs + reportIntervalMs;
        TransactionMarkersWritten report = new TransactionMarkersWritten(brokerId, brokerEpoch.getAsLong(),
                p.txn.transactionalId(), p.txn.producerId(), p.txn.producerEpoch(),
                p.txn.state() == TransactionState.PREPARE_COMMIT, List.copyOf(p.written));
        reports.markersWritten(report).whenComplete((ignored, failure) -> {
            if (failure != null) {
                LOG.debug("Broker {} will report the markers of transactional id {} again: {}", brokerId,
                        report.transactionalId(), failure.toString());
            }
        });
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
