package io.kraft.metadata.image;

import io.kraft.proto.metadata.RemoveTransactionRecord;
import io.kraft.proto.metadata.TransactionRecord;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/** Transactional id states changed or removed on top of a {@link TransactionsImage}. */
public final class TransactionsDelta {
    private final TransactionsImage image;
    private final MetadataChangeListener listener;
    /** The new state of each changed id; null for a removed one. */
    private final Map<String, TransactionMetadata> changes = new HashMap<>();

    public TransactionsDelta(TransactionsImage image, MetadataChangeListener listener) {
        this.image = image;
        this.listener = listener;
    }

    /** Each id changed in this delta with its new state, null if removed. */
    public Map<String, TransactionMetadata> changes() {
        return Collections.unmodifiableMap(changes);
    }

    /** The id's state including this delta, or null if it is unknown. */
    public TransactionMetadata transaction(String transactionalId) {
        return changes.containsKey(transactionalId) ? changes.get(transactionalId)
                : image.transaction(transactionalId);
    }

    public void replay(TransactionRecord record, int recordEpoch) {
        TransactionMetadata before = transaction(record.getTransactionalId());
        TransactionMetadata after = TransactionMetadata.replay(before, record, recordEpoch);
        changes.put(after.transactionalId(), after);
        listener.transactionChanged(before, after);
    }

    public void replay(RemoveTransactionRecord record) {
        TransactionMetadata before = transaction(record.getTransactionalId());
        if (before == null) {
            // Removing an unknown id changes nothing: a removal may race an expiry already applied.
            return;
        }
        changes.put(record.getTransactionalId(), null);
        listener.transactionChanged(before, null);
    }

    public TransactionsImage apply() {
        if (changes.isEmpty()) {
            return image;
        }
        PersistentMaps.Builder<String, TransactionMetadata> edits = PersistentMaps.edit(image.transactions());
        changes.forEach((id, state) -> {
            if (state == null) {
                edits.remove(id);
            } else {
                edits.put(id, state);
            }
        });
        return new TransactionsImage(edits.build());
    }
}
