package io.kraft.storage.log;

/** An offset or time index file fails its load-time sanity check and must be rebuilt from the log. */
public class CorruptIndexException extends RuntimeException {
    public CorruptIndexException(String message) {
        super(message);
    }
}
