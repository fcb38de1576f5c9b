package io.kraft.raft;

/** An append was refused: its batch is larger than {@link RaftConfig#MAX_BATCH_BYTES}, so it could never travel whole. */
public final class BatchTooLargeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BatchTooLargeException(int records, long bytes) {
        super("batch of " + records + " records and " + bytes + " bytes is over the " + RaftConfig.MAX_BATCH_BYTES
                + " bytes one Raft batch may carry");
    }
}
