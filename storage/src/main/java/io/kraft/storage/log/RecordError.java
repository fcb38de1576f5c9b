package io.kraft.storage.log;

import java.util.Objects;

/** One record an append was refused for (KIP-467 record errors): its index in its batch and why. */
public record RecordError(int batchIndex, String message) {
    /**
     * The most record errors one refusal names: a batch of 100,000 bad records is refused for the first, and
     * listing every one would make the answer (and the broker's memory for it) as large as the batch.
     */
    public static final int MAX_PER_REFUSAL = 100;

    public RecordError {
        Objects.requireNonNull(message, "message");
    }
}
