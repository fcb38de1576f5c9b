package io.kraft.broker.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.fetch.FetchPartitionRequest;
import io.kraft.broker.fetch.PartitionRead;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.EpochEndOffset;
import io.kraft.storage.log.FileSlice;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** KIP-227 sessions: full and incremental fetches, epochs, forgotten partitions, and the bounded cache. */
class FetchSessionCacheTest {
    private final AtomicLong nowMs = new AtomicLong(1_000_000);
    private static final FetchPartitionKey A = FetchPartitionKey.byName("a", 0);
    private static final FetchPartitionKey B = FetchPartitionKey.byName("b", 0);

    private static LinkedHashMap<FetchPartitionKey, FetchPartitionRequest> requests(Object... keysAndOffsets) {
        LinkedHashMap<FetchPartitionKey, FetchPartitionRequest> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndOffsets.length; i += 2) {
            map.put((FetchPartitionKey) keysAndOffsets[i],
                    new FetchPartitionRequest((Long) keysAndOffsets[i + 1], -1, -1, 1024));
        }
        return map;
    }

    /** A read with no records and the given watermark. */
    private static PartitionRead read(long highWatermark) {
        return new PartitionRead(Errors.NONE, FileSlice.empty(), highWatermark, highWatermark, 0, highWatermark,
                Optional.empty(), 1, 0);
    }

    private FetchContext open(FetchSessionCache cache, boolean follower) {
        return cache.newContext(true, 0, FetchSessionCache.INITIAL_EPOCH, false, follower, requests(A, 0L, B, 0L),
                List.of());
    }

    @Test
    void fetchesBeforeVersionSevenAndFinalEpochsHaveNoSession() {
        FetchSessionCache cache = new FetchSessionCache(10, nowMs::get);
        FetchContext old = cache.newContext(false, 0, -1, false, false, requests(A, 0L), List.of());
        assertEquals(0, old.responseSessionId());
        FetchContext sessionless = cache.newContext(true, 0, FetchSessionCache.FINAL_EPOCH, false, false,
                requests(A, 5L), List.of());
        assertEquals(0, sessionless.responseSessionId());
        assertEquals(requests(A, 5L), sessionless.partitionsToRead());
        assertEquals(0, cache.size());
    }

    @Test
    void anIncrementalFetchReadsTheWholeSessionAndAnswersOnlyWhatChanged() {
        FetchSessionCache cache = new FetchSessionCache(10, nowMs::get);
        FetchContext full = open(cache, false);
        int id = full.responseSessionId();
        assertNotEquals(0, id);
        LinkedHashMap<FetchPartitionKey, PartitionRead> first = new LinkedHashMap<>();
        first.put(A, read(10));
        first.put(B, read(20));
        assertEquals(2, full.select(first).size(), "a full response carries every partition");

        FetchContext incremental = cache.newContext(true, id, 1, false, false, requests(A, 10L), List.of());
        assertEquals(requests(A, 10L, B, 0L), incremental.partitionsToRead(), "A moved on, B kept its offset");
        LinkedHashMap<FetchPartitionKey, PartitionRead> second = new LinkedHashMap<>();
        second.put(A, read(10));
        second.put(B, read(21));
        assertEquals(List.of(B), List.copyOf(incremental.select(second).keySet()), "only B's watermark moved");

        FetchContext forgetting = cache.newContext(true, id, 2, false, false, requests(), List.of(A));
        assertEquals(requests(B, 0L), forgetting.partitionsToRead());
    }

    @Test
    void unknownSessionsAndWrongEpochsAreErrors() {
        FetchSessionCache cache = new FetchSessionCache(10, nowMs::get);
        assertEquals(Errors.FETCH_SESSION_ID_NOT_FOUND,
                cache.newContext(true, 4242, 1, false, false, requests(), List.of()).error().orElseThrow());
        int id = open(cache, false).responseSessionId();
        assertEquals(Errors.INVALID_FETCH_SESSION_EPOCH,
                cache.newContext(true, id, 2, false, false, requests(), List.of()).error().orElseThrow());
        assertEquals(Errors.INVALID_FETCH_SESSION_EPOCH,
                cache.newContext(true, id, -7, false, false, requests(), List.of()).error().orElseThrow());
        assertTrue(cache.newContext(true, id, 1, false, false, requests(), List.of()).error().isEmpty());
        assertEquals(Errors.FETCH_SESSION_ID_NOT_FOUND,
                cache.newContext(true, id, 2, true, false, requests(), List.of()).error().orElseThrow(),
                "a session opened with names cannot continue with topic ids");
    }

    @Test
    void aFinalEpochClosesTheSession() {
        FetchSessionCache cache = new FetchSessionCache(10, nowMs::get);
        int id = open(cache, false).responseSessionId();
        cache.newContext(true, id, FetchSessionCache.FINAL_EPOCH, false, false, requests(A, 0L), List.of());
        assertEquals(0, cache.size());
        assertEquals(Errors.FETCH_SESSION_ID_NOT_FOUND,
                cache.newContext(true, id, 1, false, false, requests(), List.of()).error().orElseThrow());
    }

    @Test
    void aFullCacheEvictsOnlyIdleSessionsOrConsumersForFollowers() {
        FetchSessionCache cache = new FetchSessionCache(2, nowMs::get);
        int oldest = open(cache, false).responseSessionId();
        open(cache, false);
        assertEquals(0, open(cache, false).responseSessionId(), "no slot: the client fetches without a session");
        assertNotEquals(0, open(cache, true).responseSessionId(), "a follower takes a consumer's slot");
        assertEquals(Errors.FETCH_SESSION_ID_NOT_FOUND,
                cache.newContext(true, oldest, 1, false, false, requests(), List.of()).error().orElseThrow());
        nowMs.addAndGet(FetchSessionCache.EVICTION_IDLE_MS);
        assertNotEquals(0, open(cache, false).responseSessionId(), "an idle session makes room");
        assertEquals(2, cache.size());
        assertEquals(0, new FetchSessionCache(0, nowMs::get).newContext(true, 0, 0, false, false, requests(A, 0L),
                List.of()).responseSessionId(), "zero slots: never a session");
    }

    @Test
    void divergingEpochsAndErrorsAreAlwaysCarried() {
        FetchSessionCache cache = new FetchSessionCache(10, nowMs::get);
        FetchContext full = open(cache, true);
        LinkedHashMap<FetchPartitionKey, PartitionRead> reads = new LinkedHashMap<>();
        reads.put(A, read(10));
        reads.put(B, read(10));
        full.select(reads);
        FetchContext incremental = cache.newContext(true, full.responseSessionId(), 1, false, true, requests(),
                List.of());
        LinkedHashMap<FetchPartitionKey, PartitionRead> next = new LinkedHashMap<>();
        next.put(A, new PartitionRead(Errors.NONE, FileSlice.empty(), 10, 10, 0, 10,
                Optional.of(new EpochEndOffset(3, 7)), 1, 4));
        next.put(B, PartitionRead.failed(Errors.NOT_LEADER_OR_FOLLOWER));
        assertEquals(2, incremental.select(next).size());
        assertEquals(FetchPartitionKey.byId(new UUID(1, 2), 0), FetchPartitionKey.byId(new UUID(1, 2), 0));
        assertTrue(FetchPartitionKey.byId(new UUID(1, 2), 0).usesTopicId());
    }
}
