package io.kraft.broker.fetch;

import io.kraft.broker.fetch.FetchPartitionRequest;
import io.kraft.storage.errors.Errors;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * The broker's incremental fetch sessions (KIP-227), at most {@code max.incremental.fetch.session.cache.slots}.
 * Turns each Fetch request's session id and epoch into a {@link FetchContext}: epoch -1 is a sessionless full
 * fetch (closing the named session), epoch 0 a full fetch that opens a new session, a higher epoch an
 * incremental fetch of an existing session. When full, the cache makes room only by evicting the least
 * recently used session if it has been idle long enough, or a consumer's session for a follower's; otherwise
 * the client gets no session and keeps sending full fetches.
 */
public final class FetchSessionCache {
    public static final int INVALID_SESSION_ID = 0;
    public static final int INITIAL_EPOCH = 0;
    public static final int FINAL_EPOCH = -1;
    /** Kafka's min.incremental.fetch.session.eviction.ms: a session idle this long may make room for another. */
    static final long EVICTION_IDLE_MS = 120_000L;

    private final int maxSessions;
    private final LongSupplier clock;
    /** In access order: the first is the least recently used. */
    private final LinkedHashMap<Integer, FetchSession> sessions = new LinkedHashMap<>(16, 0.75f, true);

    public FetchSessionCache(int maxSessions, LongSupplier clock) {
        this.maxSessions = maxSessions;
        this.clock = clock;
    }

    public FetchSessionCache(int maxSessions) {
        this(maxSessions, System::currentTimeMillis);
    }

    /**
     * Interprets one Fetch request.
     *
     * @param sessionsSupported false before Fetch v7 (always a sessionless full fetch)
     * @param usesTopicIds      Fetch v13+ names partitions by topic id
     * @param requested         the request's partitions, in order
     * @param forgotten         partitions an incremental request drops from the session
     */
    public synchronized FetchContext newContext(boolean sessionsSupported, int sessionId, int sessionEpoch,
                                                boolean usesTopicIds, boolean fromFollower,
                                                LinkedHashMap<FetchPartitionKey, FetchPartitionRequest> requested,
                                                List<FetchPartitionKey> forgotten) {
        if (!sessionsSupported) {
            return FetchContext.full(requested, null);
        }
        long nowMs = clock.getAsLong();
        if (sessionEpoch == FINAL_EPOCH) {
            sessions.remove(sessionId);
            return FetchContext.full(requested, null);
        }
        if (sessionEpoch == INITIAL_EPOCH) {
            sessions.remove(sessionId);
            return FetchContext.full(requested, maybeCreate(usesTopicIds, fromFollower, requested, nowMs));
        }
        if (sessionEpoch < FINAL_EPOCH) {
            return FetchContext.failed(Errors.INVALID_FETCH_SESSION_EPOCH, "fetch session epoch " + sessionEpoch
                    + " is invalid");
        }
        FetchSession session = sessions.get(sessionId);
        if (session == null) {
            return FetchContext.failed(Errors.FETCH_SESSION_ID_NOT_FOUND, "no fetch session with id " + sessionId);
        }
        if (session.nextEpoch() != sessionEpoch) {
            return FetchContext.failed(Errors.INVALID_FETCH_SESSION_EPOCH, "fetch session " + sessionId
                    + " expects epoch " + session.nextEpoch() + ", got " + sessionEpoch);
        }
        if (session.usesTopicIds() != usesTopicIds) {
            // A session opened with names cannot continue with ids or vice versa (the client changed version).
            sessions.remove(sessionId);
            return FetchContext.failed(Errors.FETCH_SESSION_ID_NOT_FOUND, "fetch session " + sessionId
                    + " was opened with " + (session.usesTopicIds() ? "topic ids" : "topic names"));
        }
        return FetchContext.incremental(session, session.update(requested, forgotten, nowMs));
    }

    private FetchSession maybeCreate(boolean usesTopicIds, boolean fromFollower,
                                     Map<FetchPartitionKey, FetchPartitionRequest> requested, long nowMs) {
        if (maxSessions <= 0 || (sessions.size() >= maxSessions && !evictOne(fromFollower, nowMs))) {
            return null;
        }
        int id;
        do {
            id = ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
        } while (sessions.containsKey(id));
        FetchSession session = new FetchSession(id, usesTopicIds, fromFollower, requested, nowMs);
        sessions.put(id, session);
        return session;
    }

    private boolean evictOne(boolean forFollower, long nowMs) {
        Iterator<FetchSession> lru = sessions.values().iterator();
        if (!lru.hasNext()) {
            return false;
        }
        FetchSession oldest = lru.next();
        if (nowMs - oldest.lastUsedMs() >= EVICTION_IDLE_MS || (forFollower && !oldest.privileged())) {
            lru.remove();
            return true;
        }
        return false;
    }

    public synchronized int size() {
        return sessions.size();
    }
}
