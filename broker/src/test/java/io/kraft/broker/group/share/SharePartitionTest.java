package io.kraft.broker.group.share;

import static io.kraft.broker.group.share.AcknowledgeType.ACCEPT;
import static io.kraft.broker.group.share.AcknowledgeType.REJECT;
import static io.kraft.broker.group.share.AcknowledgeType.RELEASE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.share.SharePartition.AckResult;
import io.kraft.broker.group.share.SharePartition.AcquiredRange;
import io.kraft.broker.group.share.SharePartition.StateRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SharePartitionTest {
    private static final SharePartition.Settings SETTINGS = new SharePartition.Settings(3, 1_000, 100);

    private final SharePartition partition = new SharePartition(SETTINGS, 10);

    @Test
    void acquiresNewRecordsOnceAndLocksThemToTheMember() {
        assertEquals(List.of(new AcquiredRange(10, 14, 1)), partition.acquire("a", 15, 500, 0));
        assertEquals(List.of(), partition.acquire("b", 15, 500, 0));
        assertEquals(List.of(new AcquiredRange(15, 19, 1)), partition.acquire("b", 20, 500, 0));
        assertEquals("a", partition.holderOf(12));
        assertEquals("b", partition.holderOf(17));
        assertEquals(20, partition.endOffset());
        assertEquals(10, partition.startOffset());
    }

    @Test
    void maxRecordsSplitsTheAcquisition() {
        assertEquals(List.of(new AcquiredRange(10, 12, 1)), partition.acquire("a", 20, 3, 0));
        assertEquals(List.of(new AcquiredRange(13, 19, 1)), partition.acquire("b", 20, 500, 0));
    }

    @Test
    void acceptedRecordsAdvanceTheStartOffsetOnlyWhenContiguous() {
        partition.acquire("a", 20, 500, 0);
        assertEquals(AckResult.OK, partition.acknowledge("a", 12, 19, List.of(ACCEPT)));
        assertEquals(10, partition.startOffset());
        assertEquals(AckResult.OK, partition.acknowledge("a", 10, 11, List.of(ACCEPT)));
        assertEquals(20, partition.startOffset());
        assertEquals(0, partition.rangeCount());
    }

    @Test
    void releasedRecordIsRedeliveredWithItsDeliveryCount() {
        partition.acquire("a", 13, 500, 0);
        assertEquals(AckResult.OK, partition.acknowledge("a", 10, 12, List.of(ACCEPT, RELEASE, ACCEPT)));
        assertEquals(RecordState.AVAILABLE, partition.stateOf(11).state());
        assertEquals(11, partition.startOffset());
        assertEquals(List.of(new AcquiredRange(11, 11, 2)), partition.acquire("b", 13, 500, 0));
    }

    @Test
    void rejectedRecordGoesNoFurther() {
        partition.acquire("a", 12, 500, 0);
        assertEquals(AckResult.OK, partition.acknowledge("a", 10, 11, List.of(ACCEPT, REJECT)));
        assertEquals(12, partition.startOffset());
        assertEquals(RecordState.ARCHIVED, partition.stateOf(11).state());
        assertEquals(List.of(), partition.acquire("b", 12, 500, 0));
    }

    @Test
    void deliveryCountLimitArchivesAfterTheLastAttempt() {
        for (int attempt = 1; attempt <= 3; attempt++) {
            assertEquals(List.of(new AcquiredRange(10, 10, attempt)), partition.acquire("a", 11, 500, 0));
            partition.acknowledge("a", 10, 10, List.of(RELEASE));
        }
        assertEquals(11, partition.startOffset());
        assertEquals(List.of(), partition.acquire("a", 11, 500, 0));
    }

    @Test
    void expiredLockMakesRecordsAvailableToAnotherMember() {
        partition.acquire("a", 15, 500, 0);
        assertEquals(1_000, partition.nextLockDeadlineMs());
        assertEquals(0, partition.expireLocks(999));
        assertEquals(5, partition.expireLocks(1_000));
        assertEquals(List.of(new AcquiredRange(10, 14, 2)), partition.acquire("b", 15, 500, 1_000));
        assertEquals(AckResult.INVALID_RECORD_STATE, partition.acknowledge("a", 10, 14, List.of(ACCEPT)));
        assertEquals(AckResult.OK, partition.acknowledge("b", 10, 14, List.of(ACCEPT)));
    }

    @Test
    void memberLeavingReleasesItsRecords() {
        partition.acquire("a", 13, 500, 0);
        partition.acquire("b", 16, 500, 0);
        assertEquals(3, partition.releaseMember("a"));
        assertEquals(List.of(new AcquiredRange(10, 12, 2)), partition.acquire("c", 16, 500, 0));
        assertEquals("b", partition.holderOf(14));
    }

    @Test
    void acknowledgingRecordsNotHeldChangesNothing() {
        partition.acquire("a", 15, 500, 0);
        assertEquals(AckResult.INVALID_RECORD_STATE, partition.acknowledge("b", 10, 12, List.of(ACCEPT)));
        assertEquals(AckResult.INVALID_RECORD_STATE, partition.acknowledge("a", 13, 15, List.of(ACCEPT)));
        assertEquals(AckResult.INVALID_REQUEST, partition.acknowledge("a", 10, 12, List.of(ACCEPT, ACCEPT)));
        assertEquals(AckResult.INVALID_REQUEST, partition.acknowledge("a", 12, 11, List.of(ACCEPT)));
        for (long o = 10; o < 15; o++) {
            assertEquals("a", partition.holderOf(o));
        }
        partition.acknowledge("a", 10, 10, List.of(ACCEPT));
        assertEquals(AckResult.INVALID_RECORD_STATE, partition.acknowledge("a", 10, 10, List.of(ACCEPT)));
    }

    @Test
    void inFlightCapStopsNewAcquisitionsUntilTheStartMoves() {
        SharePartition small = new SharePartition(new SharePartition.Settings(3, 1_000, 5), 0);
        assertEquals(List.of(new AcquiredRange(0, 4, 1)), small.acquire("a", 100, 500, 0));
        assertEquals(-1, small.nextFetchOffset());
        assertEquals(List.of(), small.acquire("a", 100, 500, 0));
        small.acknowledge("a", 0, 1, List.of(ACCEPT));
        assertEquals(List.of(new AcquiredRange(5, 6, 1)), small.acquire("a", 100, 500, 0));
    }

    @Test
    void snapshotKeepsCountsAndDropsLocks() {
        partition.acquire("a", 16, 500, 0);
        partition.acknowledge("a", 11, 13, List.of(ACCEPT, RELEASE, REJECT));
        SharePartition restored = SharePartition.restore(SETTINGS, partition.snapshot());
        assertEquals(10, restored.startOffset());
        assertEquals(16, restored.endOffset());
        assertNull(restored.holderOf(10));
        assertEquals(List.of(new AcquiredRange(10, 10, 2), new AcquiredRange(12, 12, 2),
                new AcquiredRange(14, 15, 2)), restored.acquire("b", 16, 500, 0));
        assertEquals(RecordState.ARCHIVED, restored.stateOf(13).state());
    }

    @Test
    void logStartOffsetMovingPastRecordsDropsThem() {
        partition.acquire("a", 20, 500, 0);
        partition.onLogStartOffset(15);
        assertEquals(15, partition.startOffset());
        assertEquals(AckResult.INVALID_RECORD_STATE, partition.acknowledge("a", 14, 15, List.of(ACCEPT)));
        assertEquals(AckResult.OK, partition.acknowledge("a", 15, 19, List.of(ACCEPT)));
        assertEquals(20, partition.startOffset());
        partition.onLogStartOffset(30);
        assertEquals(30, partition.nextFetchOffset());
    }

    /** Random events against a per-offset model: the ranges must agree with it after every step. */
    @Test
    void rangesAgreeWithAPerRecordModel() {
        for (int seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            SharePartition p = new SharePartition(new SharePartition.Settings(3, 50, 40), 0);
            Model model = new Model(3, 50, 40);
            long now = 0;
            long logEnd = 0;
            String[] members = {"a", "b", "c"};
            for (int step = 0; step < 300; step++) {
                String m = members[random.nextInt(members.length)];
                switch (random.nextInt(5)) {
                    case 0 -> logEnd += random.nextInt(10);
                    case 1 -> {
                        int max = 1 + random.nextInt(8);
                        assertEquals(model.acquire(m, logEnd, max, now), p.acquire(m, logEnd, max, now),
                                "seed " + seed + " step " + step);
                    }
                    case 2 -> {
                        long first = model.start + random.nextInt(12);
                        long last = first + random.nextInt(4);
                        List<AcknowledgeType> types = new ArrayList<>();
                        int n = random.nextBoolean() ? 1 : (int) (last - first + 1);
                        for (int i = 0; i < n; i++) {
                            types.add(AcknowledgeType.values()[1 + random.nextInt(3)]);
                        }
                        assertEquals(model.acknowledge(m, first, last, types), p.acknowledge(m, first, last, types),
                                "seed " + seed + " step " + step);
                    }
                    case 3 -> {
                        now += random.nextInt(30);
                        assertEquals(model.expire(now), p.expireLocks(now));
                    }
                    default -> assertEquals(model.release(m), p.releaseMember(m));
                }
                assertEquals(model.start, p.startOffset(), "seed " + seed + " step " + step);
                for (long o = model.start; o < model.end; o++) {
                    StateRange s = p.stateOf(o);
                    assertEquals(model.state.get((int) o), s.state(), "seed " + seed + " offset " + o);
                    assertEquals(model.count.get((int) o), s.deliveryCount());
                }
                assertTrue(p.rangeCount() <= model.end - model.start);
            }
        }
    }

    /** The obvious one-entry-per-record implementation, as an oracle. */
    private static final class Model {
        final int limit;
        final long lockMs;
        final int cap;
        final List<RecordState> state = new ArrayList<>();
        final List<Integer> count = new ArrayList<>();
        final List<String> holder = new ArrayList<>();
        final List<Long> deadline = new ArrayList<>();
        long start;
        long end;

        Model(int limit, long lockMs, int cap) {
            this.limit = limit;
            this.lockMs = lockMs;
            this.cap = cap;
        }

        List<AcquiredRange> acquire(String m, long fetchedEnd, int max, long now) {
            List<AcquiredRange> out = new ArrayList<>();
            int budget = max;
            for (long o = start; o < end && o < fetchedEnd && budget > 0; o++) {
                if (state.get((int) o) == RecordState.AVAILABLE) {
                    take(out, o, m, now);
                    budget--;
                }
            }
            while (budget > 0 && end < fetchedEnd && end < start + cap) {
                state.add(RecordState.AVAILABLE);
                count.add(0);
                holder.add(null);
                deadline.add(0L);
                take(out, end++, m, now);
                budget--;
            }
            return out;
        }

        private void take(List<AcquiredRange> out, long o, String m, long now) {
            int i = (int) o;
            state.set(i, RecordState.ACQUIRED);
            count.set(i, count.get(i) + 1);
            holder.set(i, m);
            deadline.set(i, now + lockMs);
            AcquiredRange prev = out.isEmpty() ? null : out.get(out.size() - 1);
            if (prev != null && prev.lastOffset() + 1 == o && prev.deliveryCount() == count.get(i)) {
                out.set(out.size() - 1, new AcquiredRange(prev.firstOffset(), o, count.get(i)));
            } else {
                out.add(new AcquiredRange(o, o, count.get(i)));
            }
        }

        AckResult acknowledge(String m, long first, long last, List<AcknowledgeType> types) {
            if (first < start || last >= end) {
                return AckResult.INVALID_RECORD_STATE;
            }
            for (long o = first; o <= last; o++) {
                if (state.get((int) o) != RecordState.ACQUIRED || !m.equals(holder.get((int) o))) {
                    return AckResult.INVALID_RECORD_STATE;
                }
            }
            for (long o = first; o <= last; o++) {
                AcknowledgeType t = types.size() == 1 ? types.get(0) : types.get((int) (o - first));
                int i = (int) o;
                holder.set(i, null);
                switch (t) {
                    case ACCEPT -> state.set(i, RecordState.ACKNOWLEDGED);
                    case REJECT, GAP -> state.set(i, RecordState.ARCHIVED);
                    case RELEASE -> giveBack(i);
                }
            }
            advance();
            return AckResult.OK;
        }

        int expire(long now) {
            int n = 0;
            for (long o = start; o < end; o++) {
                int i = (int) o;
                if (state.get(i) == RecordState.ACQUIRED && deadline.get(i) <= now) {
                    giveBack(i);
                    n++;
                }
            }
            advance();
            return n;
        }

        int release(String m) {
            int n = 0;
            for (long o = start; o < end; o++) {
                int i = (int) o;
                if (state.get(i) == RecordState.ACQUIRED && m.equals(holder.get(i))) {
                    giveBack(i);
                    n++;
                }
            }
            advance();
            return n;
        }

        private void giveBack(int i) {
            holder.set(i, null);
            state.set(i, count.get(i) >= limit ? RecordState.ARCHIVED : RecordState.AVAILABLE);
        }

        private void advance() {
            while (start < end && state.get((int) start).terminal()) {
                start++;
            }
        }
    }
}
