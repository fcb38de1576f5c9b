package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which high watermark each fetcher has been sent: a fetcher not yet told the current one must be answered at
 * once rather than parked for a whole fetch wait (observers apply only committed metadata).
 */
class LeaderStateHighWatermarkSentTest {

    @Test
    void aFetcherNeverAnsweredHasNotSeenAnyHighWatermark() {
        LeaderState leader = new LeaderState(3, 1, 10, Set.of(1, 2, 3), 100);
        assertFalse(leader.hasSeenHighWatermark(9, 0));
    }

    @Test
    void aFetcherHasSeenWhatItWasSentAndNothingNewer() {
        LeaderState leader = new LeaderState(3, 1, 10, Set.of(1, 2, 3), 100);
        leader.recordHighWatermarkSent(9, 40);
        assertTrue(leader.hasSeenHighWatermark(9, 40));
        assertTrue(leader.hasSeenHighWatermark(9, 35));
        assertFalse(leader.hasSeenHighWatermark(9, 41), "the high watermark moved after the last answer");
        assertFalse(leader.hasSeenHighWatermark(2, 40), "tracked per fetcher");
    }

    @Test
    void aLateAnswerCarryingAnOlderHighWatermarkDoesNotForgetANewerOne() {
        LeaderState leader = new LeaderState(3, 1, 10, Set.of(1, 2, 3), 100);
        leader.recordHighWatermarkSent(9, 50);
        leader.recordHighWatermarkSent(9, 45);
        assertTrue(leader.hasSeenHighWatermark(9, 50));
    }
}
