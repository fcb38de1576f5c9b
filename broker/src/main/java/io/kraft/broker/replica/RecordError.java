package io.kraft.broker.replica;

/** One record a produce was refused for (KIP-467): its index in its batch and why. */
public record RecordError(int batchIndex, String message) {
}
