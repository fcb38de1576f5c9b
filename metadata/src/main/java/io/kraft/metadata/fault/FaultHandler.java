package io.kraft.metadata.fault;

/**
 * Decides what a fault means for the process. A fault is an error after which the node's metadata can no longer be
 * trusted (a publisher failed to take in a committed image, a committed record does not apply), so carrying on would
 * leave a zombie. The node assembly supplies a handler that logs one line and stops the process; tests supply one
 * that records the fault.
 */
@FunctionalInterface
public interface FaultHandler {

    /**
     * Handles a fault; may not return (the process stops).
     *
     * @param message one line naming what failed and where, e.g. the publisher and the offset
     * @param cause   the error, or null
     */
    void handleFault(String message, Throwable cause);

    /**
     * Stops the node in order after a failure it cannot serve through but that leaves its state sound (every log
     * directory of a broker failed): the node closes as on SIGTERM, then the process exits with a non-zero status.
     * Without an override, a fault.
     *
     * @param message one line naming what failed
     */
    default void handleStop(String message) {
        handleFault(message, null);
    }
}
