package io.kraft.metadata.loop;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.metadata.fault.RecordingFaultHandler;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An event that throws is a fault, whatever it throws, and the loop does not carry on as if nothing happened. */
class SingleThreadEventLoopTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void anExceptionOrErrorEscapingAnEventIsAFault() {
        RecordingFaultHandler faults = new RecordingFaultHandler();
        SingleThreadEventLoop loop = new SingleThreadEventLoop("test-loop", faults);
        try {
            loop.execute("bad event", () -> {
                throw new IllegalStateException("broken invariant");
            });
            loop.schedule("worse event", 0, () -> {
                throw new OutOfMemoryError("Java heap space");
            });
            await().atMost(WAIT).until(() -> faults.faults().size() == 2);
            assertEquals(List.of(
                    "event bad event on test-loop failed: java.lang.IllegalStateException: broken invariant",
                    "event worse event on test-loop failed: java.lang.OutOfMemoryError: Java heap space"),
                    faults.faults());
        } finally {
            loop.close();
        }
    }
}
