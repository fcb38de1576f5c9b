package io.kraft.metadata.image;

import io.kraft.metadata.InvalidMetadataRecordException;

/** Where a transactional id's transaction stands; Kafka's states, with Kafka's names for tools and describe. */
public enum TransactionState {
    EMPTY("Empty", io.kraft.proto.metadata.TransactionState.TRANSACTION_STATE_EMPTY),
    ONGOING("Ongoing", io.kraft.proto.metadata.TransactionState.TRANSACTION_STATE_ONGOING),
    PREPARE_COMMIT("PrepareCommit", io.kraft.proto.metadata.TransactionState.TRANSACTION_STATE_PREPARE_COMMIT),
    PREPARE_ABORT("PrepareAbort", io.kraft.proto.metadata.TransactionState.TRANSACTION_STATE_PREPARE_ABORT),
    COMPLETE_COMMIT("CompleteCommit", io.kraft.proto.metadata.TransactionState.TRANSACTION_STATE_COMPLETE_COMMIT),
    COMPLETE_ABORT("CompleteAbort", io.kraft.proto.metadata.TransactionState.TRANSACTION_STATE_COMPLETE_ABORT),
    DEAD("Dead", io.kraft.proto.metadata.TransactionState.TRANSACTION_STATE_DEAD);

    private final String kafkaName;
    private final io.kraft.proto.metadata.TransactionState proto;

    TransactionState(String kafkaName, io.kraft.proto.metadata.TransactionState proto) {
        this.kafkaName = kafkaName;
        this.proto = proto;
    }

    /** The name Kafka's tools show and ListTransactions filters by (e.g. "Ongoing"). */
    public String kafkaName() {
        return kafkaName;
    }

    public io.kraft.proto.metadata.TransactionState toProto() {
        return proto;
    }

    public static TransactionState fromProto(io.kraft.proto.metadata.TransactionState state) {
        for (TransactionState candidate : values()) {
            if (candidate.proto == state) {
                return candidate;
            }
        }
        throw new InvalidMetadataRecordException("Unknown transaction state " + state);
    }

    /** Whether a transaction is open: partitions may belong to it and its markers may still be due. */
    public boolean hasOpenTransaction() {
        return this == ONGOING || this == PREPARE_COMMIT || this == PREPARE_ABORT;
    }

    /** Whether markers are being written (the decision is taken, the partitions not all told yet). */
    public boolean isPrepare() {
        return this == PREPARE_COMMIT || this == PREPARE_ABORT;
    }
}
