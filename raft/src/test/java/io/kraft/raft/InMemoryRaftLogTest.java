package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class InMemoryRaftLogTest {
    private static LogEntry entry(long offset, int epoch) {
        return LogEntry.data(offset, epoch, new byte[] {(byte) offset});
    }

    private static InMemoryRaftLog logWithEpochs(int... epochs) {
        InMemoryRaftLog log = new InMemoryRaftLog();
        for (int i = 0; i < epochs.length; i++) {
            log.append(List.of(entry(i, epochs[i])));
        }
        return log;
    }

    @Test
    void endOffsetForEpochFindsTheLargestEpochNotAboveTheOneAsked() {
        InMemoryRaftLog log = logWithEpochs(1, 1, 3, 3, 3, 5);
        assertEquals(new OffsetAndEpoch(2, 1), log.endOffsetForEpoch(1));
        assertEquals(new OffsetAndEpoch(2, 1), log.endOffsetForEpoch(2));
        assertEquals(new OffsetAndEpoch(5, 3), log.endOffsetForEpoch(4));
        assertEquals(new OffsetAndEpoch(6, 5), log.endOffsetForEpoch(9));
        assertEquals(new OffsetAndEpoch(0, 0), log.endOffsetForEpoch(0));
    }

    @Test
    void truncationForgetsEpochsAndUnflushedState() {
        InMemoryRaftLog log = logWithEpochs(1, 1, 3, 3);
        log.flush();
        log.truncateTo(2);
        assertEquals(1, log.lastEpoch());
        assertEquals(2, log.flushedEndOffset());
        assertEquals(new OffsetAndEpoch(2, 1), log.endOffsetForEpoch(3));
        log.append(List.of(entry(2, 4)));
        assertEquals(4, log.epochOf(2));
    }

    @Test
    void crashKeepsOnlyTheFlushedPrefix() {
        InMemoryRaftLog log = logWithEpochs(1, 1);
        log.flush();
        log.append(List.of(entry(2, 2)));
        InMemoryRaftLog survivor = log.durableCopy();
        assertEquals(2, survivor.endOffset());
        assertEquals(1, survivor.lastEpoch());
    }

    @Test
    void rejectsGapsAndEpochRegressions() {
        InMemoryRaftLog log = logWithEpochs(2);
        assertThrows(IllegalArgumentException.class, () -> log.append(List.of(entry(5, 2))));
        assertThrows(IllegalArgumentException.class, () -> log.append(List.of(entry(1, 1))));
        assertThrows(IllegalArgumentException.class, () -> log.read(3, 1));
    }
}
