package io.kraft.storage.log;

import java.io.IOException;

/** An I/O failure on a log's files; the message names the operation and the file. */
public class LogStorageException extends RuntimeException {
    public LogStorageException(String message, IOException cause) {
        super(message + ": " + cause, cause);
    }

    public LogStorageException(String message) {
        super(message);
    }
}
