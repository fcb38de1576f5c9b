package io.kraft.cli.transactions;

/**
 * A transactions command could not do what was asked (no such transactional id, no open transaction at that
 * offset); the message is the one line printed after "Error: ".
 */
public final class TransactionCommandException extends RuntimeException {
    public TransactionCommandException(String message) {
        super(message);
    }
}
