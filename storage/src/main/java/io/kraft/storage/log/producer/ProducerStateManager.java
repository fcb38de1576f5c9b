package io.kraft.storage.log.producer;

import io.kraft.storage.log.CorruptCheckpointException;
import io.kraft.storage.log.LogStorageException;
import io.kraft.storage.record.ControlRecordType;
import io.kraft.storage.record.CorruptRecordException;
import io.kraft.storage.record.EndTransactionMarker;
import io.kraft.storage.record.RecordBatch;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The idempotent and transactional producer state of one partition log (KIP-98) and its snapshot files.
 *
 * <p>Changes come from one thread at a time (the log's lock): {@link #validator()} checks a leader
 * append, {@link #update} applies every batch written (leader, follower and rebuild alike, from batch
 * headers only). Reads ({@link #producers()}, {@link #producer}) may come from any thread and see
 * immutable entries.
 *
 * <p>State outlives the batches that built it (KIP-360): retention and DeleteRecords leave it alone;
 * only {@link #removeExpired} (producer.id.expiration.ms of inactivity, never with a transaction open) and
 * truncation drop it.
 *
 * <p>Transactions: a transactional data batch opens a transaction for its producer unless one is open; a marker
 * (a control batch, COMMIT or ABORT) ends it. The open transactions, and the completed ones whose marker is not
 * yet below the high watermark, give the first unstable offset ({@link #firstUnstableOffset}).
 */
public final class ProducerStateManager {
    private static final Logger LOG = LoggerFactory.getLogger(ProducerStateManager.class);
    public static final String SNAPSHOT_SUFFIX = ".snapshot";

    private final Path dir;
    private final Map<Long, ProducerStateEntry> producers = new ConcurrentHashMap<>();
    private final OpenTransactions transactions = new OpenTransactions();

    /** @param dir the partition directory holding the snapshot files */
    public ProducerStateManager(Path dir) {
        this.dir = dir;
    }

    /** The snapshot file holding the state as of {@code offset}. */
    public static Path snapshotFile(Path dir, long offset) {
        return dir.resolve(String.format("%020d", offset) + SNAPSHOT_SUFFIX);
    }

    Path dir() {
        return dir;
    }

    /** Every tracked producer by id, as of now (an immutable copy). */
    public Map<Long, ProducerStateEntry> producers() {
        return Map.copyOf(producers);
    }

    public Optional<ProducerStateEntry> producer(long producerId) {
        return Optional.ofNullable(producers.get(producerId));
    }

    ProducerStateEntry entry(long producerId) {
        return producers.get(producerId);
    }

    public int producerCount() {
        return producers.size();
    }

    /** A checker for the batches of one leader append; it changes nothing. */
    public ProducerAppendValidator validator() {
        return new ProducerAppendValidator(this);
    }

    /**
     * Applies a written batch (offsets assigned) without validation: the log's order is the truth, as
     * for a follower or a rebuild. Uses only header fields, and the record of a control batch (which must be
     * whole); batches without a producer id are ignored.
     *
     * @return the transaction a marker ended, else null
     */
    public CompletedTxn update(RecordBatch batch) {
        long producerId = batch.producerId();
        if (producerId < 0) {
            return null;
        }
        short epoch = batch.producerEpoch();
        ProducerStateEntry entry = producers.get(producerId);
        if (batch.isControl()) {
            return applyMarker(batch, entry);
        }
        BatchMetadata metadata = new BatchMetadata(batch.baseSequence(), batch.lastSequence(), batch.baseOffset(),
                batch.lastOffset(), batch.maxTimestamp());
        long txnFirstOffset = batch.isTransactional() ? batch.baseOffset() : ProducerStateEntry.NO_TXN;
        ProducerStateEntry next = entry == null ? ProducerStateEntry.first(producerId, epoch, metadata, txnFirstOffset)
                : entry.withBatch(epoch, metadata, txnFirstOffset);
        producers.put(producerId, next);
        if (next.hasOpenTransaction() && (entry == null || !entry.hasOpenTransaction())) {
            transactions.begin(producerId, next.currentTxnFirstOffset());
        }
        return null;
    }

    private CompletedTxn applyMarker(RecordBatch batch, ProducerStateEntry entry) {
        long producerId = batch.producerId();
        short epoch = batch.producerEpoch();
        EndTransactionMarker marker;
        try {
            marker = EndTransactionMarker.fromBatch(batch);
        } catch (CorruptRecordException e) {
            // Not a transaction marker: only its epoch counts (a leader never writes such a batch itself).
            LOG.warn("log {} holds a control batch at offset {} that is no transaction marker: {}", dir,
                    batch.baseOffset(), e.getMessage());
            producers.put(producerId, entry == null
                    ? new ProducerStateEntry(producerId, epoch, List.of(), batch.maxTimestamp())
                    : entry.withMarker(epoch, batch.maxTimestamp(), entry.coordinatorEpoch()));
            return null;
        }
        long firstOffset = entry != null && entry.hasOpenTransaction() ? entry.currentTxnFirstOffset()
                : batch.baseOffset();
        ProducerStateEntry next = entry == null
                ? new ProducerStateEntry(producerId, epoch, List.of(), batch.maxTimestamp(), marker.coordinatorEpoch(),
                        ProducerStateEntry.NO_TXN)
                : entry.withMarker(epoch, batch.maxTimestamp(), marker.coordinatorEpoch());
        producers.put(producerId, next);
        CompletedTxn completed = new CompletedTxn(producerId, firstOffset, batch.baseOffset(),
                marker.type() == ControlRecordType.ABORT);
        transactions.complete(completed);
        return completed;
    }

    /**
     * The last stable offset the index entry of {@code txn} records, right after its marker: the first offset of
     * the oldest transaction of another producer still open, else the offset after the marker.
     */
    public long lastStableOffsetAfter(CompletedTxn txn) {
        long firstOpen = transactions.firstOpenOffsetExcept(txn.producerId());
        return firstOpen >= 0 ? firstOpen : txn.lastOffset() + 1;
    }

    /**
     * The first offset of the oldest transaction that is open or whose marker is not below the high watermark
     * last reported to {@link #onHighWatermark}; {@code Long.MAX_VALUE} when none. Takes no lock.
     */
    public long firstUnstableOffset() {
        return transactions.firstUnstableOffset();
    }

    /** The high watermark moved: completed transactions whose marker is below it no longer hold the LSO back. */
    public void onHighWatermark(long highWatermark) {
        transactions.onHighWatermark(highWatermark);
    }

    /** How many producers have a transaction open in this partition. */
    public int openTransactionCount() {
        return transactions.openCount();
    }

    /**
     * Forgets producers whose newest batch timestamp is at least {@code expirationMs} before
     * {@code nowMs} (producer.id.expiration.ms); a later write from one is an unknown producer.
     *
     * @return the number of producers removed
     */
    public int removeExpired(long nowMs, long expirationMs) {
        int removed = 0;
        for (ProducerStateEntry entry : List.copyOf(producers.values())) {
            // A producer with an open transaction stays: its first offset holds the LSO until a marker comes.
            if (!entry.hasOpenTransaction() && nowMs - entry.lastTimestampMs() >= expirationMs) {
                producers.remove(entry.producerId(), entry);
                removed++;
            }
        }
        if (removed > 0) {
            LOG.debug("log {} expired {} idle producer ids", dir, removed);
        }
        return removed;
    }

    /** Forgets every producer (the log restarts empty); snapshots are left to the caller. */
    public void clear() {
        producers.clear();
        transactions.clear();
    }

    /** Writes the current state as the snapshot at {@code offset} (the log end it is valid at). */
    public void writeSnapshot(long offset, boolean durable) {
        List<ProducerStateEntry> entries = new ArrayList<>(producers.values());
        entries.sort(Comparator.comparingLong(ProducerStateEntry::producerId));
        ProducerSnapshotFile.write(snapshotFile(dir, offset), offset, entries, durable);
    }

    /**
     * Replaces the state with the newest readable snapshot at or below {@code maxOffset}: snapshots
     * above it describe data the log no longer has and are deleted; a corrupt one is deleted with a
     * warning and the next older one tried.
     *
     * @return the offset of the snapshot loaded (the caller replays batches from there), or empty when
     *     none was usable and the state is empty
     */
    public OptionalLong loadSnapshot(long maxOffset) {
        clear();
        List<Long> offsets = snapshotOffsets();
        for (long offset : offsets) {
            if (offset > maxOffset) {
                deleteSnapshot(offset);
            }
        }
        for (int i = offsets.size() - 1; i >= 0; i--) {
            long offset = offsets.get(i);
            if (offset > maxOffset) {
                continue;
            }
            try {
                for (ProducerStateEntry entry : ProducerSnapshotFile.read(snapshotFile(dir, offset), offset)) {
                    producers.put(entry.producerId(), entry);
                    if (entry.hasOpenTransaction()) {
                        transactions.begin(entry.producerId(), entry.currentTxnFirstOffset());
                    }
                }
                return OptionalLong.of(offset);
            } catch (CorruptCheckpointException e) {
                LOG.warn("ignoring corrupt producer snapshot of log {}: {}", dir, e.getMessage());
                clear();
                deleteSnapshot(offset);
            }
        }
        return OptionalLong.empty();
    }

    /** Offsets of the snapshot files present, ascending. */
    public List<Long> snapshotOffsets() {
        List<Long> offsets = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*" + SNAPSHOT_SUFFIX)) {
            for (Path file : stream) {
                String name = file.getFileName().toString();
                String digits = name.substring(0, name.length() - SNAPSHOT_SUFFIX.length());
                if (digits.length() == 20 && digits.chars().allMatch(Character::isDigit)) {
                    offsets.add(Long.parseLong(digits));
                }
            }
        } catch (IOException e) {
            throw new LogStorageException("cannot list producer snapshots of " + dir, e);
        }
        offsets.sort(null);
        return offsets;
    }

    /** Deletes the snapshots below {@code offset} (their segments are gone). */
    public void deleteSnapshotsBelow(long offset) {
        for (long snapshot : snapshotOffsets()) {
            if (snapshot < offset) {
                deleteSnapshot(snapshot);
            }
        }
    }

    /** Deletes every snapshot (the log restarts empty). */
    public void deleteAllSnapshots() {
        for (long snapshot : snapshotOffsets()) {
            deleteSnapshot(snapshot);
        }
    }

    /** Deletes the snapshot at {@code offset}, if there is one. */
    public void deleteSnapshot(long offset) {
        Path file = snapshotFile(dir, offset);
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new LogStorageException("cannot delete producer snapshot " + file, e);
        }
    }
}
