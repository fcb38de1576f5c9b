package io.kraft.server.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RetryPaceTest {

    @Test
    void aControllerNamingItselfIsAskedAgainAtAShortFixedPace() {
        // 30 refusals from a controller elected but not serving yet: at most 50 ms apart, never a growing backoff.
        long backoff = RetryPace.INITIAL_BACKOFF_MS;
        long waited = 0;
        for (int hop = 0; hop < 30; hop++) {
            RetryPace pace = RetryPace.after(false, true, hop, backoff);
            waited += pace.delayMs();
            backoff = pace.nextBackoffMs();
        }
        assertEquals(30 * RetryPace.INITIAL_BACKOFF_MS, waited);

        RetryPace fromCap = RetryPace.after(false, true, 5, RetryPace.MAX_BACKOFF_MS);
        assertEquals(RetryPace.CLAIMING_RETRY_MS, fromCap.delayMs());
        assertEquals(RetryPace.MAX_BACKOFF_MS, fromCap.nextBackoffMs());
    }

    @Test
    void otherRefusalsBackOffDoublingUpToTheCap() {
        long backoff = RetryPace.INITIAL_BACKOFF_MS;
        long[] delays = new long[6];
        for (int hop = 0; hop < delays.length; hop++) {
            RetryPace pace = RetryPace.after(false, false, hop, backoff);
            delays[hop] = pace.delayMs();
            backoff = pace.nextBackoffMs();
        }
        assertEquals(20, delays[0]);
        assertEquals(40, delays[1]);
        assertEquals(160, delays[3]);
        assertEquals(RetryPace.MAX_BACKOFF_MS, delays[4]);
        assertEquals(RetryPace.MAX_BACKOFF_MS, delays[5]);
    }

    @Test
    void theFirstHopToANamedControllerGoesAtOnce() {
        assertEquals(0, RetryPace.after(true, false, 0, 80).delayMs());
        assertEquals(80, RetryPace.after(true, false, 1, 80).delayMs());
    }
}
