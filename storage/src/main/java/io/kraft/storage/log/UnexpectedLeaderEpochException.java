package io.kraft.storage.log;

/**
 * A follower append carries a batch whose leader epoch is older than one the log already holds: its history and
 * the leader's differ, and appending would hide that from the leader epoch cache (KIP-101).
 */
public class UnexpectedLeaderEpochException extends RuntimeException {
    public UnexpectedLeaderEpochException(String message) {
        super(message);
    }
}
