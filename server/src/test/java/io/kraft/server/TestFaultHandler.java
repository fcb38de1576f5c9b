package io.kraft.server;

import io.kraft.metadata.fault.FaultHandler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The fault handler of nodes started inside a test JVM: records each fault (the node would have stopped its process)
 * so the test fails naming it, instead of the whole test JVM exiting.
 */
public final class TestFaultHandler implements FaultHandler {
    private final List<String> faults = new CopyOnWriteArrayList<>();

    @Override
    public void handleFault(String message, Throwable cause) {
        faults.add(cause == null ? message : message + " (" + cause + ")");
    }

    /** Throws if any node of the test hit a fault. */
    public void assertNone() {
        if (!faults.isEmpty()) {
            throw new AssertionError("a node would have stopped its process: " + faults);
        }
    }
}
