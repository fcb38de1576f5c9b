package io.kraft.server;

import io.kraft.metadata.fault.FaultHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's {@link FaultHandler}: logs one line naming what failed and halts the process with exit status 1. A node
 * whose metadata can no longer be trusted must not stay up as a zombie; halting (not exiting) skips the shutdown hook,
 * which would wait for the very thread that reports the fault. An orderly stop ({@link #handleStop}) exits instead,
 * so the shutdown hook closes the node as SIGTERM would, and a supervisor sees status 1.
 */
public final class ProcessStoppingFaultHandler implements FaultHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessStoppingFaultHandler.class);

    @Override
    public void handleFault(String message, Throwable cause) {
        LOG.error("Stopping the process after a fault: {}", message);
        LOG.debug("The fault's cause", cause);
        Runtime.getRuntime().halt(1);
    }

    @Override
    public void handleStop(String message) {
        LOG.error("Stopping the process: {}", message);
        // From a thread of its own: exit waits for the shutdown hook, which may wait for the caller's thread.
        Thread exit = new Thread(() -> System.exit(1), "kraft-exit");
        exit.setDaemon(false);
        exit.start();
    }
}
