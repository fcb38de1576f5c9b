package io.kraft.raft;

/**
 * Hears an error that stopped a {@link RaftDriver}'s thread (a failed write or fsync of the metadata log, an
 * exception escaping the core or the listener). A node whose Raft thread is gone still answers on its other threads
 * but can never commit or learn anything again, so the node assembly stops the process; raft itself holds no process
 * policy, hence this hook rather than a dependency on the metadata module's fault handler.
 */
@FunctionalInterface
public interface FatalErrorHandler {

    /**
     * Handles the error; may not return (the process stops).
     *
     * @param message one line naming the node and what failed
     * @param cause   the error
     */
    void handleFatalError(String message, Throwable cause);
}
