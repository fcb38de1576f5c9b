package io.kraft.storage.log;

/** A checkpoint file does not have the expected version, entry count or entry format. */
public class CorruptCheckpointException extends RuntimeException {
    public CorruptCheckpointException(String message) {
        super(message);
    }
}
