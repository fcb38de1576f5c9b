package io.kraft.broker.api.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A produce's timeout_ms reaches the purgatory clamped, so no client parks an acks=all wait for weeks. */
class ProduceTimeoutCapTest {
    @Test
    void clampsTimeoutToTheCap() {
        assertEquals(30_000, ProduceHandler.cappedTimeoutMs(30_000));
        assertEquals(ProduceHandler.TIMEOUT_CAP_MS, ProduceHandler.cappedTimeoutMs(Integer.MAX_VALUE));
        assertEquals(0, ProduceHandler.cappedTimeoutMs(-5));
    }
}
