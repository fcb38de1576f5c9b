package io.kraft.storage.cleaner;

import io.kraft.storage.log.AbortedTxn;
import io.kraft.storage.log.TransactionIndex;
import io.kraft.storage.record.ControlRecordType;
import io.kraft.storage.record.CorruptRecordException;
import io.kraft.storage.record.EndTransactionMarker;
import io.kraft.storage.record.RecordBatch;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one walk of the cleaner over a log's batches, in offset order, knows of its transactions (KIP-98): from the
 * aborted transactions the log's transaction indexes list, which transactional batches are aborted data (the
 * cleaner removes them), and whether a marker still has data of its transaction after it was read (it must stay;
 * else it may go once its delete horizon passed). The cleaned range lies below the last stable offset, so every
 * transaction in it is complete.
 */
final class CleanerTransactions {
    private final ArrayDeque<AbortedTxn> pending;
    /** Producer → its aborted transaction the walk is inside, and whether the walk saw data of it. */
    private final Map<Long, Aborted> ongoingAborted = new HashMap<>();
    /** Producers whose committed transaction the walk is inside, having seen data of it. */
    private final Set<Long> ongoingCommitted = new HashSet<>();

    private static final class Aborted {
        final AbortedTxn txn;
        boolean sawData;

        Aborted(AbortedTxn txn) {
            this.txn = txn;
        }
    }

    /** @param aborted the aborted transactions overlapping the walked range, in any order */
    CleanerTransactions(List<AbortedTxn> aborted) {
        List<AbortedTxn> sorted = new ArrayList<>(aborted);
        sorted.sort(Comparator.comparingLong(AbortedTxn::firstOffset));
        this.pending = new ArrayDeque<>(sorted);
    }

    /** Enters the aborted transactions that started at or before {@code offset} and whose marker is not behind it. */
    private void enterUpTo(long offset) {
        while (!pending.isEmpty() && pending.peekFirst().firstOffset() <= offset) {
            AbortedTxn txn = pending.pollFirst();
            if (txn.lastOffset() >= offset) {
                ongoingAborted.put(txn.producerId(), new Aborted(txn));
            }
        }
    }

    /**
     * A data batch was read.
     *
     * @return true when it belongs to an aborted transaction: its records go
     */
    boolean onDataBatch(RecordBatch batch) {
        enterUpTo(batch.lastOffset());
        if (!batch.isTransactional()) {
            return false;
        }
        long producerId = batch.producerId();
        Aborted aborted = ongoingAborted.get(producerId);
        if (aborted != null && aborted.txn.lastOffset() > batch.lastOffset()) {
            aborted.sawData = true;
            return true;
        }
        if (aborted != null) {
            ongoingAborted.remove(producerId); // its marker is gone: this is a later, committed transaction
        }
        ongoingCommitted.add(producerId);
        return false;
    }

    /**
     * A marker was read. An ABORT marker that had data of its transaction after it stays, and its entry goes to
     * {@code cleanedIndex} (the index of the segment being written, null when only mapping).
     *
     * @return true when no data of its transaction was seen, so the marker may go (after its delete horizon)
     */
    boolean onMarker(RecordBatch batch, TransactionIndex cleanedIndex) {
        enterUpTo(batch.lastOffset());
        long producerId = batch.producerId();
        ControlRecordType type;
        try {
            type = EndTransactionMarker.fromBatch(batch).type();
        } catch (CorruptRecordException e) {
            return false; // not a marker this cleaner knows: kept as it is
        }
        if (type == ControlRecordType.ABORT) {
            Aborted aborted = ongoingAborted.remove(producerId);
            if (aborted != null && aborted.sawData) {
                if (cleanedIndex != null) {
                    cleanedIndex.append(aborted.txn);
                }
                return false;
            }
            return true;
        }
        return !ongoingCommitted.remove(producerId);
    }
}
