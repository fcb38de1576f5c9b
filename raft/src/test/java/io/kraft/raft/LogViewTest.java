package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The core's view of its log: its own writes stay readable in memory until a flush report covers them, and whatever it
 * did between two Readies reaches the driver as one delete-truncate-append that leaves the driver's log equal to it.
 */
class LogViewTest {
    private final InMemoryRaftLog storage = new InMemoryRaftLog();

    private static List<LogEntry> entries(long from, int count, int epoch) {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            entries.add(LogEntry.data(from + i, epoch, new byte[] {(byte) (from + i)}));
        }
        return entries;
    }

    @Test
    void aBytesLimitedReadCarriesTheBatchesThatFitAndAlwaysTheFirstWhole() {
        LogView view = new LogView(storage, Optional.empty());
        for (int batch = 0; batch < 4; batch++) {
            // batches of 3 entries of 100 bytes each: 300 bytes per batch
            List<byte[]> records = List.of(new byte[100], new byte[100], new byte[100]);
            view.append(LogEntry.batch(batch * 3L, 1, records));
        }
        assertEquals(6, view.readBatches(0, 100, 600).size(), "two batches fit exactly");
        assertEquals(3, view.readBatches(0, 100, 500).size(), "a batch that would pass the limit waits");
        assertEquals(3, view.readBatches(0, 100, 300).size());
        assertEquals(3, view.readBatches(0, 100, 1).size(), "the first batch is whole whatever the limit");
        assertEquals(12, view.readBatches(0, 100, Long.MAX_VALUE).size());
    }

    @Test
    void entriesTheDriverHasNotWrittenAreReadFromMemoryUntilAFlushReportCoversThem() {
        LogView view = new LogView(storage, Optional.empty());
        view.append(entries(0, 5, 1));
        Ready.LogWrites writes = view.takeWrites();
        assertEquals(entries(0, 5, 1), writes.append());
        assertTrue(writes.flush());
        assertEquals(entries(0, 5, 1), view.read(0, 10), "nothing written yet, all read from memory");
        assertEquals(0, view.flushedEndOffset());

        writes.applyTo(storage);
        storage.flush();
        view.flushed(storage.endOffset());
        assertEquals(5, view.flushedEndOffset());
        assertEquals(0, view.unstableEntries(), "durable entries are read from the driver's log from now on");
        assertEquals(entries(0, 5, 1), view.read(0, 10));
    }

    @Test
    void aTruncationAndTheAppendsAfterItReachTheDriverAsOneTruncateThenAppend() {
        LogView view = new LogView(storage, Optional.empty());
        view.append(entries(0, 6, 1));
        apply(view.takeWrites());
        storage.flush();
        view.flushed(storage.endOffset());

        view.append(entries(6, 2, 1));
        view.truncateTo(4);
        view.append(entries(4, 3, 2));
        Ready.LogWrites writes = view.takeWrites();
        assertEquals(OptionalLong.of(4), writes.truncateTo());
        assertEquals(entries(4, 3, 2), writes.append());
        assertEquals(4, view.flushedEndOffset(), "nothing at or above a truncation counts as durable");
        apply(writes);
        assertEquals(view.read(0, 100), storage.read(0, 100));
    }

    @Test
    void aFlushReportDoesNotCountEntriesATruncationNotYetHandedOutReplaces() {
        LogView view = new LogView(storage, Optional.empty());
        view.append(entries(0, 6, 1));
        apply(view.takeWrites());
        view.truncateTo(3);
        view.append(entries(3, 3, 2));
        storage.flush(); // the driver flushes the six entries of epoch 1 it has
        view.flushed(storage.endOffset());
        assertEquals(3, view.flushedEndOffset(), "offsets 3-5 on disk are the replaced entries, not these");
        assertEquals(2, view.epochOf(5));
    }

    @Test
    void aResetToASnapshotTheLogDoesNotReachEmptiesTheDriversLogToo() {
        LogView view = new LogView(storage, Optional.empty());
        view.append(entries(0, 4, 1));
        apply(view.takeWrites());
        SnapshotId beyond = new SnapshotId(10, 3);
        view.deletePrefix(beyond);
        assertEquals(10, view.startOffset());
        assertEquals(10, view.endOffset());
        assertEquals(3, view.lastEpoch());
        Ready.LogWrites writes = view.takeWrites();
        assertEquals(Optional.of(beyond), writes.deletePrefix());
        apply(writes);
        assertEquals(10, storage.startOffset());
        assertEquals(10, storage.endOffset());
        assertEquals(3, storage.lastEpoch());
    }

    @Test
    void aPrefixDeletionOverAppendsNotYetWrittenStillLeavesTheDriversLogEqualToTheView() {
        LogView view = new LogView(storage, Optional.empty());
        view.append(entries(0, 3, 1));
        apply(view.takeWrites());
        view.append(entries(3, 5, 1));
        view.deletePrefix(new SnapshotId(5, 1)); // covers entries only this view holds so far
        assertEquals(entries(5, 3, 1), view.read(5, 10));
        apply(view.takeWrites());
        assertEquals(5, storage.startOffset());
        assertEquals(view.read(5, 10), storage.read(5, 10));
    }

    /**
     * Random appends, truncations, prefix deletions and resets, handed out now and then and applied by a driver
     * that lags behind by several Readies; flush reports come only once it caught up. After every step the view must
     * read like a simple model of the log, and once every write is applied the driver's log must equal it.
     */
    @Test
    void theDriversLogEndsEqualToTheViewWhateverTheCoreWroteInWhateverOrder() {
        for (long seed = 0; seed < 500; seed++) {
            Random random = new Random(seed);
            InMemoryRaftLog disk = new InMemoryRaftLog();
            LogView view = new LogView(disk, Optional.empty());
            Model model = new Model();
            Deque<Ready.LogWrites> handedOut = new ArrayDeque<>();
            for (int step = 0; step < 200; step++) {
                switch (random.nextInt(7)) {
                    case 0, 1 -> {
                        int epoch = model.lastEpoch() + random.nextInt(2);
                        List<LogEntry> appended = entries(model.end(), 1 + random.nextInt(4), Math.max(1, epoch));
                        view.append(appended);
                        model.entries.addAll(appended);
                    }
                    case 2 -> {
                        long to = model.start + random.nextInt((int) (model.end() - model.start) + 1);
                        view.truncateTo(to);
                        model.truncateTo(to);
                    }
                    case 3 -> {
                        SnapshotId snapshot = model.randomSnapshot(random);
                        if (snapshot != null) {
                            view.deletePrefix(snapshot);
                            model.deletePrefix(snapshot);
                        }
                    }
                    case 4, 5 -> handedOut.add(view.takeWrites());
                    default -> {
                        // The driver catches up some Readies; a flush report needs every handed-out write applied.
                        int applied = random.nextInt(handedOut.size() + 1);
                        for (int i = 0; i < applied; i++) {
                            handedOut.poll().applyTo(disk);
                        }
                        if (handedOut.isEmpty()) {
                            disk.flush();
                            view.flushed(disk.endOffset());
                        }
                    }
                }
                String context = "seed " + seed + " step " + step;
                assertEquals(model.start, view.startOffset(), context);
                assertEquals(model.end(), view.endOffset(), context);
                assertEquals(model.lastEpoch(), view.lastEpoch(), context);
                assertEquals(model.entries, view.read(model.start, Integer.MAX_VALUE), context);
                int epoch = random.nextInt(model.lastEpoch() + 2);
                assertEquals(model.endOffsetForEpoch(epoch), view.endOffsetForEpoch(epoch), context + " epoch " + epoch);
            }
            handedOut.add(view.takeWrites());
            handedOut.forEach(writes -> writes.applyTo(disk));
            assertEquals(model.start, disk.startOffset(), "seed " + seed);
            assertEquals(model.end(), disk.endOffset(), "seed " + seed);
            assertEquals(model.lastEpoch(), disk.lastEpoch(), "seed " + seed);
            assertEquals(model.entries, disk.read(model.start, Integer.MAX_VALUE), "seed " + seed);
        }
    }

    private void apply(Ready.LogWrites writes) {
        writes.applyTo(storage);
    }

    /** The log as a plain list after a start offset, and the epoch of the snapshot it starts after. */
    private static final class Model {
        long start;
        int startEpoch;
        final List<LogEntry> entries = new ArrayList<>();

        long end() {
            return start + entries.size();
        }

        int lastEpoch() {
            return entries.isEmpty() ? startEpoch : entries.get(entries.size() - 1).epoch();
        }

        void truncateTo(long offset) {
            entries.subList((int) (offset - start), entries.size()).clear();
        }

        /**
         * Usually a snapshot the log holds the last entry of (a prefix deletion); otherwise one beyond the log or
         * of another history at that offset (a reset, as when a snapshot is installed from the leader).
         */
        SnapshotId randomSnapshot(Random random) {
            int kind = random.nextInt(4);
            if (kind == 0 || entries.isEmpty()) {
                return new SnapshotId(end() + 1 + random.nextInt(3), Math.max(1, lastEpoch() + random.nextInt(2)));
            }
            long end = start + 1 + random.nextInt(entries.size());
            int epoch = entries.get((int) (end - 1 - start)).epoch();
            return new SnapshotId(end, kind == 1 ? epoch + 1 : epoch);
        }

        void deletePrefix(SnapshotId snapshot) {
            long end = snapshot.endOffset();
            boolean keep = end <= end() && end > start
                    && entries.get((int) (end - 1 - start)).epoch() == snapshot.epoch();
            if (keep) {
                entries.subList(0, (int) (end - start)).clear();
            } else {
                entries.clear();
            }
            start = end;
            startEpoch = snapshot.epoch();
        }

        OffsetAndEpoch endOffsetForEpoch(int epoch) {
            int floor = start > 0 && startEpoch <= epoch ? startEpoch : 0;
            long floorEnd = start;
            for (LogEntry entry : entries) {
                if (entry.epoch() <= epoch) {
                    floor = entry.epoch();
                    floorEnd = entry.offset() + 1;
                }
            }
            return floor == 0 ? new OffsetAndEpoch(0, 0) : new OffsetAndEpoch(floorEnd, floor);
        }
    }
}
