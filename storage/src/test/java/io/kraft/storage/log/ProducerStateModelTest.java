package io.kraft.storage.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.log.producer.BatchMetadata;
import io.kraft.storage.log.producer.InvalidProducerEpochException;
import io.kraft.storage.log.producer.DuplicateSequenceException;
import io.kraft.storage.log.producer.OutOfOrderSequenceException;
import io.kraft.storage.log.producer.ProducerStateEntry;
import io.kraft.storage.log.producer.ProducerStateException;
import io.kraft.storage.log.producer.ProducerStateManager;
import io.kraft.storage.log.producer.UnknownProducerIdException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random idempotent producers (retries, gaps, epoch bumps, fenced epochs, unknown producers, expiry)
 * interleaved with rolls, clean reopens, crashes that lose or garble snapshots, and truncations,
 * against a model that derives the expected state by replaying the history of written batches.
 * A failure names its seed; {@code -Dkraft.seed=N} replays it, {@code -Dkraft.seeds=N}
 * changes how many run.
 */
class ProducerStateModelTest {
    private static final int SEQUENCES = Integer.getInteger("kraft.seeds", 60);
    private static final int OPERATIONS = 60;
    private static final long EXPIRATION_MS = 5_000;

    @TempDir(factory = MemoryBackedTempDirFactory.class)
    Path root;

    /** One event of the model's history: a written batch (producerId -1 when not idempotent) or an expiry pass. */
    private record Event(long producerId, short epoch, int firstSequence, int lastSequence, long firstOffset,
                         long lastOffset, long timestampMs, long expireAtMs) {
        static Event batch(long producerId, short epoch, int firstSequence, int count, long firstOffset, long ts) {
            return new Event(producerId, epoch, firstSequence, firstSequence + count - 1, firstOffset,
                    firstOffset + count - 1, ts, -1);
        }

        static Event expiry(long nowMs) {
            return new Event(-1, (short) -1, -1, -1, -1, -1, -1, nowMs);
        }

        boolean isBatch() {
            return expireAtMs < 0;
        }

        BatchMetadata metadata() {
            return new BatchMetadata(firstSequence, lastSequence, firstOffset, lastOffset, timestampMs);
        }
    }

    @Test
    void randomProducersMatchTheModel() {
        Long replay = Long.getLong("kraft.seed");
        long master = replay != null ? replay : new Random().nextLong();
        Random seeds = new Random(master);
        int count = replay != null ? 1 : SEQUENCES;
        for (int i = 0; i < count; i++) {
            long seed = replay != null ? replay : seeds.nextLong();
            try {
                new Sequence(root.resolve("seq-" + i), seed).run();
            } catch (Throwable t) {
                System.err.println("ProducerStateModelTest failed with seed " + seed + "; replay with -Dkraft.seed="
                        + seed);
                throw new AssertionError("producer model sequence failed with seed " + seed + " (replay: -Dkraft.seed="
                        + seed + "): " + t, t);
            }
        }
    }

    private static final class Sequence {
        private final Path dir;
        private final Random random;
        private final LogConfig config;
        private final List<Event> history = new ArrayList<>();
        /** Highest epoch ever used per producer id, so a returning (expired) producer always starts afresh. */
        private final Map<Long, Short> maxEpoch = new HashMap<>();
        private final int producerCount;
        private Log log;
        private long nowMs = 1_000_000;
        private long end;

        Sequence(Path dir, long seed) {
            this.dir = dir;
            this.random = new Random(seed);
            this.producerCount = 1 + random.nextInt(4);
            this.config = LogConfig.builder()
                    .segmentBytes(500 + random.nextInt(2000))
                    .indexIntervalBytes(random.nextInt(200))
                    .maxIndexBytes(LogConfig.MIN_INDEX_BYTES + random.nextInt(400))
                    .retentionMs(-1)
                    .fileDeleteDelayMs(0)
                    .producerIdExpirationMs(EXPIRATION_MS)
                    .build();
        }

        void run() throws Exception {
            log = Log.open(dir, config);
            try {
                for (int op = 0; op < OPERATIONS; op++) {
                    nowMs += random.nextInt(300);
                    step(random.nextInt(100));
                    assertEquals(end, log.logEndOffset(), "log end offset");
                    assertEquals(expectedState(), log.producerState(), "producer state");
                }
            } finally {
                log.close();
            }
        }

        /** The state the history leaves: each producer's last five batches at its latest epoch. */
        private Map<Long, ProducerStateEntry> expectedState() {
            Map<Long, ProducerStateEntry> state = new LinkedHashMap<>();
            for (Event event : history) {
                if (!event.isBatch()) {
                    state.values().removeIf(e -> event.expireAtMs() - e.lastTimestampMs() >= EXPIRATION_MS);
                    continue;
                }
                if (event.producerId() < 0) {
                    continue;
                }
                ProducerStateEntry current = state.get(event.producerId());
                List<BatchMetadata> batches = new ArrayList<>();
                if (current != null && current.producerEpoch() == event.epoch()) {
                    batches.addAll(current.batches());
                }
                batches.add(event.metadata());
                while (batches.size() > ProducerStateEntry.MAX_CACHED_BATCHES) {
                    batches.remove(0);
                }
                long lastTimestamp = Math.max(current == null ? Long.MIN_VALUE : current.lastTimestampMs(),
                        event.timestampMs());
                state.put(event.producerId(),
                        new ProducerStateEntry(event.producerId(), event.epoch(), batches, lastTimestamp));
            }
            return state;
        }

        private void step(int dice) throws Exception {
            if (dice < 70) {
                produce();
            } else if (dice < 75) {
                plainBatch();
            } else if (dice < 80) {
                log.roll();
            } else if (dice < 84) {
                log.close();
                log = Log.open(dir, config, log.recoveryPoint(), log.logStartOffset(), true);
            } else if (dice < 90) {
                crash();
            } else if (dice < 95) {
                truncate();
            } else {
                nowMs += random.nextInt((int) EXPIRATION_MS);
                log.deleteExpiredSegments(nowMs);
                history.add(Event.expiry(nowMs));
            }
        }

        private void plainBatch() {
            int count = 1 + random.nextInt(3);
            AppendInfo info = log.append(TestBatches.batch(count, nowMs), 0, nowMs);
            assertEquals(end, info.firstOffset());
            history.add(Event.batch(-1, (short) -1, -1, count, end, nowMs));
            end += count;
        }

        /** A producer batch chosen to exercise one rule, and the outcome the model predicts for it. */
        private void produce() {
            long producerId = 1 + random.nextInt(producerCount);
            ProducerStateEntry entry = expectedState().get(producerId);
            short epoch;
            int sequence;
            int count = 1 + random.nextInt(4);
            int kind = random.nextInt(100);
            if (entry == null) {
                epoch = (short) (maxEpoch.getOrDefault(producerId, (short) -1) + 1);
                sequence = kind < 80 ? 0 : 1 + random.nextInt(20);
            } else if (kind < 55) {
                epoch = entry.producerEpoch();
                sequence = entry.nextSequence();
            } else if (kind < 75 && !entry.batches().isEmpty()) {
                BatchMetadata cached = entry.batches().get(random.nextInt(entry.batches().size()));
                epoch = entry.producerEpoch();
                sequence = cached.firstSequence();
                count = cached.lastSequence() - cached.firstSequence() + 1;
            } else if (kind < 80) {
                List<Event> older = olderBatches(producerId, entry);
                if (older.isEmpty()) {
                    epoch = entry.producerEpoch();
                    sequence = entry.nextSequence() + 1 + random.nextInt(5);
                } else {
                    Event old = older.get(random.nextInt(older.size()));
                    epoch = entry.producerEpoch();
                    sequence = old.firstSequence();
                    count = old.lastSequence() - old.firstSequence() + 1;
                }
            } else if (kind < 87) {
                epoch = entry.producerEpoch();
                sequence = entry.nextSequence() + 1 + random.nextInt(5);
            } else if (kind < 94) {
                epoch = (short) (maxEpoch.get(producerId) + 1);
                sequence = random.nextInt(4) == 0 ? 1 + random.nextInt(10) : 0;
            } else if (entry.producerEpoch() > 0) {
                epoch = (short) (entry.producerEpoch() - 1);
                sequence = random.nextInt(10);
            } else {
                epoch = entry.producerEpoch();
                sequence = entry.nextSequence() + 1;
            }
            ByteBuffer batch = TestBatches.idempotent(producerId, epoch, sequence, count, nowMs);
            Class<? extends ProducerStateException> refusal = expectedRefusal(entry, epoch, sequence, count);
            if (refusal != null) {
                assertThrows(refusal, () -> log.append(batch, 0, nowMs));
                return;
            }
            BatchMetadata duplicate = entry == null ? null : duplicateOf(entry, epoch, sequence, count);
            AppendInfo info = log.append(batch, 0, nowMs);
            assertEquals(duplicate != null, info.duplicate(), "duplicate");
            if (duplicate != null) {
                assertEquals(duplicate.firstOffset(), info.firstOffset());
                assertEquals(duplicate.lastOffset(), info.lastOffset());
                return;
            }
            assertEquals(end, info.firstOffset());
            history.add(Event.batch(producerId, epoch, sequence, count, end, nowMs));
            maxEpoch.merge(producerId, epoch, (a, b) -> (short) Math.max(a, b));
            end += count;
        }

        /** This producer's batches at its current epoch that fell out of the five cached. */
        private List<Event> olderBatches(long producerId, ProducerStateEntry entry) {
            List<Event> mine = new ArrayList<>();
            for (Event event : history) {
                if (event.isBatch() && event.producerId() == producerId && event.epoch() == entry.producerEpoch()) {
                    mine.add(event);
                }
            }
            return mine.size() > entry.batches().size() ? mine.subList(0, mine.size() - entry.batches().size())
                    : List.of();
        }

        private static BatchMetadata duplicateOf(ProducerStateEntry entry, short epoch, int sequence, int count) {
            if (entry.producerEpoch() != epoch) {
                return null;
            }
            for (BatchMetadata batch : entry.batches()) {
                if (batch.firstSequence() == sequence && batch.lastSequence() == sequence + count - 1) {
                    return batch;
                }
            }
            return null;
        }

        private static Class<? extends ProducerStateException> expectedRefusal(ProducerStateEntry entry, short epoch,
                int sequence, int count) {
            if (entry == null) {
                return sequence == 0 ? null : UnknownProducerIdException.class;
            }
            if (epoch < entry.producerEpoch()) {
                return InvalidProducerEpochException.class;
            }
            if (duplicateOf(entry, epoch, sequence, count) != null) {
                return null;
            }
            if (epoch != entry.producerEpoch()) {
                return sequence == 0 ? null : OutOfOrderSequenceException.class;
            }
            if (!entry.batches().isEmpty() && sequence + count - 1 < entry.batches().get(0).firstSequence()) {
                return DuplicateSequenceException.class; // written before the cached batches
            }
            return sequence == entry.nextSequence() ? null : OutOfOrderSequenceException.class;
        }

        /** Drops the handles unflushed, maybe loses or garbles snapshots, reopens without the clean marker. */
        private void crash() throws Exception {
            long start = log.logStartOffset();
            log.closeHandlers();
            ProducerStateManager files = new ProducerStateManager(dir);
            List<Long> snapshots = files.snapshotOffsets();
            int damage = random.nextInt(4);
            for (int i = 0; i < snapshots.size(); i++) {
                boolean hit = damage == 1 || (damage == 2 && i == snapshots.size() - 1)
                        || (damage == 3 && random.nextBoolean());
                if (!hit) {
                    continue;
                }
                Path file = ProducerStateManager.snapshotFile(dir, snapshots.get(i));
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                    if (random.nextBoolean() || raf.length() == 0) {
                        raf.setLength(raf.length() / 2);
                    } else {
                        long position = random.nextInt((int) raf.length());
                        raf.seek(position);
                        int b = raf.read();
                        raf.seek(position);
                        raf.write(b ^ (1 + random.nextInt(255)));
                    }
                }
            }
            log = Log.open(dir, config, 0, start, false);
            settleExpiry();
        }

        /** Truncates at a batch boundary, as a follower does after a leader change. */
        private void truncate() {
            List<Event> batches = history.stream().filter(Event::isBatch).toList();
            if (batches.isEmpty()) {
                return;
            }
            Event cut = batches.get(batches.size() - 1 - random.nextInt(Math.min(batches.size(), 4)));
            assertTrue(log.truncateTo(cut.firstOffset()));
            history.subList(history.indexOf(cut), history.size()).clear();
            end = cut.firstOffset();
            settleExpiry();
        }

        /**
         * A rebuild replays from a snapshot that may predate expiry passes, so it can bring back producers
         * that were idle then and are still idle now; one pass at the current time settles both sides.
         */
        private void settleExpiry() {
            log.removeExpiredProducers(nowMs);
            history.add(Event.expiry(nowMs));
        }
    }
}
