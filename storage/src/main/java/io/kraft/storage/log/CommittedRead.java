package io.kraft.storage.log;

import java.util.List;

/**
 * A read_committed log read (KIP-98): the bytes below the last stable offset, and the aborted transactions that
 * overlap them (the consumer drops those producers' batches up to each ABORT marker).
 */
public record CommittedRead(LogReadResult result, List<AbortedTxn> abortedTransactions) {
    public CommittedRead {
        abortedTransactions = List.copyOf(abortedTransactions);
    }
}
