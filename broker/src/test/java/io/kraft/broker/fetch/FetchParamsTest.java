package io.kraft.broker.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A request's max_wait_ms reaches the purgatory clamped, so no client parks a fetch for hours. */
class FetchParamsTest {
    @Test
    void clampsMaxWaitToTheCap() {
        assertEquals(500, FetchParams.of(-1, 500, 1, 1 << 20, (byte) 0).maxWaitMs());
        assertEquals(FetchParams.MAX_WAIT_CAP_MS, FetchParams.of(-1, Integer.MAX_VALUE, 1, 1 << 20, (byte) 0).maxWaitMs());
        assertEquals(0, FetchParams.of(-1, Integer.MIN_VALUE, 1, 1 << 20, (byte) 0).maxWaitMs());
    }
}
