package io.kraft.metadata.image;

import io.kraft.proto.metadata.MetadataRecord;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Every transactional id's committed state, by id. The map is persistent, so the image after a delta shares every id
 * the delta did not touch.
 */
public record TransactionsImage(Map<String, TransactionMetadata> transactions) {
    public static final TransactionsImage EMPTY = new TransactionsImage(PersistentMaps.empty());

    public TransactionsImage {
        transactions = PersistentMaps.of(transactions);
    }

    /** The id's state, or null if the id is unknown (never used, or expired). */
    public TransactionMetadata transaction(String transactionalId) {
        return transactions.get(transactionalId);
    }

    /** One record per id with its whole state, ordered by id. */
    public List<MetadataRecord> toRecords() {
        return transactions.values().stream()
                .sorted(Comparator.comparing(TransactionMetadata::transactionalId))
                .map(TransactionMetadata::toRecord)
                .toList();
    }
}
