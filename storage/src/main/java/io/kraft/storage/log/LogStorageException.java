package io.kraft.storage.log;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;
import java.io.IOException;

/** An I/O failure on a log's files; the message names the operation and the file. */
public class LogStorageException extends ApiException {
    public LogStorageException(String message, IOException cause) {
        super(Errors.KAFKA_STORAGE_ERROR, message + ": " + cause, cause);
    }

    public LogStorageException(String message) {
        super(Errors.KAFKA_STORAGE_ERROR, message);
    }
}
