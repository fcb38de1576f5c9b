package io.kraft.metadata.fault;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A test's fault handler: records each fault instead of stopping the process. */
public final class RecordingFaultHandler implements FaultHandler {
    private final List<String> faults = new CopyOnWriteArrayList<>();

    @Override
    public void handleFault(String message, Throwable cause) {
        faults.add(message);
    }

    /** Every fault so far, oldest first. */
    public List<String> faults() {
        return List.copyOf(faults);
    }
}
