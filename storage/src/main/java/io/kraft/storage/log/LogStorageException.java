package io.kraft.storage.log;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;

/** An I/O failure on a log's files; the message names the operation and the file. */
public class LogStorageException extends ApiException {
    public LogStorageException(String message, IOException cause) {
        super(Errors.KAFKA_STORAGE_ERROR, message + ": " + cause, cause);
    }

    public LogStorageException(String message) {
        super(Errors.KAFKA_STORAGE_ERROR, message);
    }

    /**
     * Whether the error says the device failed, so the log directory must go offline. A size limit does not, nor does
     * a closed channel: that is this process closing the file (a partition moved away, a segment deleted) while
     * another thread still read it, which says nothing about the disk.
     */
    public boolean isDeviceFailure() {
        return getCause() instanceof IOException && !(getCause() instanceof ClosedChannelException);
    }
}
