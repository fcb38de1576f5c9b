package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The fault-injection checker on hand-made histories: each invariant caught on its own, a clean run passes. */
class ChaosCheckerTest {
    private static ChaosHistory.Read at(String value, int partition, long offset) {
        return new ChaosHistory.Read(value, partition, offset);
    }

    private static ChaosHistory acked(Object... valuePartitionOffset) {
        ChaosHistory history = new ChaosHistory();
        for (int i = 0; i < valuePartitionOffset.length; i += 3) {
            history.acked((String) valuePartitionOffset[i], (Integer) valuePartitionOffset[i + 1],
                    ((Integer) valuePartitionOffset[i + 2]).longValue());
        }
        return history;
    }

    @Test
    void aCleanHistoryPasses() {
        ChaosHistory history = acked("p0-0", 0, 0, "p0-1", 1, 0, "p0-2", 0, 1);
        history.read("p0-0", 0, 0);
        history.committed(0, 1);
        history.committedReadBack(0, 1, 1);
        ChaosChecker.Result result = ChaosChecker.check(history,
                List.of(at("p0-0", 0, 0), at("p0-2", 0, 1), at("p0-1", 1, 0), at("p1-0", 1, 1)));
        assertTrue(result.ok(), result.examples().toString());
        assertEquals(3, result.acked());
        assertEquals(4, result.read(), "an unacknowledged value may be in the log");
    }

    @Test
    void anAcknowledgedValueMissingIsLost() {
        ChaosChecker.Result result = ChaosChecker.check(acked("p0-0", 0, 0, "p0-1", 0, 1), List.of(at("p0-0", 0, 0)));
        assertEquals(1, result.lost());
        assertFalse(result.ok());
        assertTrue(result.examples().get(0).contains("lost p0-1"), result.examples().toString());
    }

    @Test
    void aValueTwiceIsADuplicate() {
        ChaosChecker.Result result = ChaosChecker.check(acked("p0-0", 0, 0),
                List.of(at("p0-0", 0, 0), at("p0-0", 0, 1)));
        assertEquals(1, result.duplicated());
    }

    @Test
    void aValueAtAnotherOffsetThanAcknowledgedIsMisplaced() {
        ChaosChecker.Result result = ChaosChecker.check(acked("p0-0", 0, 5), List.of(at("p0-0", 0, 0)));
        assertEquals(1, result.misplaced());
    }

    @Test
    void anAcknowledgementWithoutOffsetOnlyFixesThePartition() {
        ChaosHistory history = acked("p0-0", 0, 0, "p0-1", 0, (int) ChaosChecker.UNKNOWN_OFFSET,
                "p0-2", 1, (int) ChaosChecker.UNKNOWN_OFFSET);
        ChaosChecker.Result result = ChaosChecker.check(history,
                List.of(at("p0-0", 0, 0), at("p0-1", 0, 7), at("p0-2", 0, 8)));
        assertEquals(1, result.misplaced(), result.examples().toString());
        assertTrue(result.examples().get(0).contains("p0-2"), result.examples().toString());
        assertEquals(0, result.lost());
    }

    @Test
    void aProducersValuesOutOfSequenceWithinAPartitionAreReordered() {
        ChaosChecker.Result result = ChaosChecker.check(new ChaosHistory(),
                List.of(at("p0-3", 0, 0), at("p0-1", 0, 1), at("p1-0", 0, 2), at("p0-2", 1, 0)));
        assertEquals(1, result.outOfOrder(), result.examples().toString());
    }

    @Test
    void aRecordTheGroupReadButTheFinalLogLacksWasReadThenLost() {
        ChaosHistory history = new ChaosHistory();
        history.read("p0-7", 2, 3);
        assertEquals(1, ChaosChecker.check(history, List.of()).readThenLost());
    }

    @Test
    void committedOffsetsGoingBackwardsAreRegressions() {
        ChaosHistory history = new ChaosHistory();
        history.committed(0, 10);
        history.committed(0, 8);
        history.committed(1, 4);
        history.committedReadBack(1, 3, 4);
        history.committedReadBack(2, -1, -1);
        assertEquals(2, ChaosChecker.check(history, List.of()).commitRegressions());
    }

    @Test
    void theLongestGapBetweenAcknowledgementsIsMeasured() throws InterruptedException {
        ChaosHistory history = new ChaosHistory();
        history.acked("p0-0", 0, 0);
        Thread.sleep(30);
        history.acked("p0-1", 0, 1);
        List<ChaosHistory.Read> log = List.of(at("p0-0", 0, 0), at("p0-1", 0, 1));
        assertTrue(ChaosChecker.check(history, log).longestGapMs() >= 30);
    }
}
