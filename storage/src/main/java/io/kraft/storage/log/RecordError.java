package io.kraft.storage.log;

import java.util.Objects;

/** One record an append was refused for (KIP-467 record errors): its index in its batch and why. */
public record RecordError(int batchIndex, String message) {
    public RecordError {
        Objects.requireNonNull(message, "message");
    }
}
