package io.kraft.storage.log;

/** A follower append carries offsets that do not continue the log (below the log end offset or not increasing). */
public class UnexpectedAppendOffsetException extends RuntimeException {
    public UnexpectedAppendOffsetException(String message) {
        super(message);
    }
}
