package io.kraft.testkit;

import io.kraft.metadata.fault.FaultHandler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The fault handler of embedded nodes: a node that hits a fault would stop its process, which in a test would end the
 * test JVM; the fault is recorded instead and the cluster's {@link KraftCluster#close()} fails naming it.
 */
final class FaultRecorder implements FaultHandler {
    private final List<String> faults = new CopyOnWriteArrayList<>();

    @Override
    public void handleFault(String message, Throwable cause) {
        faults.add(cause == null ? message : message + " (" + cause + ")");
    }

    List<String> faults() {
        return List.copyOf(faults);
    }
}
