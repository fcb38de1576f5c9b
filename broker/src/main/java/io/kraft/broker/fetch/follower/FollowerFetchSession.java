package io.kraft.broker.fetch.follower;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * The follower's side of an incremental fetch session with one leader (KIP-227): the first request names every
 * partition and opens a session; later ones name only partitions whose fetch state changed and forget those no
 * longer fetched. Any session error, other top-level error or lost connection starts over with a full fetch.
 * Driven by one fetcher thread; no I/O.
 */
final class FollowerFetchSession {
    static final int INVALID_SESSION_ID = 0;
    static final int INITIAL_EPOCH = 0;

    /** What the follower asks for one partition; the leader keeps the last one it was told. */
    record PartitionFetch(UUID topicId, int partition, int currentLeaderEpoch, long fetchOffset, int lastFetchedEpoch,
                          long logStartOffset, int maxBytes) {
    }

    /** One request to send: a full one names every wanted partition, an incremental one only the changed. */
    record Request(int sessionId, int epoch, Map<TopicPartition, PartitionFetch> toSend,
                   List<PartitionFetch> toForget) {
        boolean isFull() {
            return epoch == INITIAL_EPOCH;
        }
    }

    private int sessionId = INVALID_SESSION_ID;
    private int nextEpoch = INITIAL_EPOCH;
    /** What the leader's session holds once the last request is accepted. */
    private Map<TopicPartition, PartitionFetch> sessionPartitions = new LinkedHashMap<>();
    private Map<TopicPartition, PartitionFetch> pending;
    private Request inFlight;

    /** The request for this round, given every partition to fetch now and its state. */
    Request next(Map<TopicPartition, PartitionFetch> wanted) {
        pending = new LinkedHashMap<>(wanted);
        if (nextEpoch == INITIAL_EPOCH) {
            // Naming the old id with epoch 0 frees the leader's slot for the new session.
            inFlight = new Request(sessionId, INITIAL_EPOCH, pending, List.of());
            return inFlight;
        }
        Map<TopicPartition, PartitionFetch> changed = new LinkedHashMap<>();
        wanted.forEach((tp, fetch) -> {
            if (!fetch.equals(sessionPartitions.get(tp))) {
                changed.put(tp, fetch);
            }
        });
        List<PartitionFetch> forgotten = new ArrayList<>();
        sessionPartitions.forEach((tp, fetch) -> {
            if (!wanted.containsKey(tp)) {
                forgotten.add(fetch);
            }
        });
        inFlight = new Request(sessionId, nextEpoch, changed, forgotten);
        return inFlight;
    }

    /**
     * Takes the leader's answer to the request in flight.
     *
     * @return true if the answer's partitions may be applied (no top-level error)
     */
    boolean onResponse(short errorCode, int responseSessionId) {
        Objects.requireNonNull(inFlight, "no request in flight");
        Request answered = inFlight;
        inFlight = null;
        if (errorCode != Errors.NONE.code()) {
            // FETCH_SESSION_ID_NOT_FOUND (a restarted leader, an evicted session), INVALID_FETCH_SESSION_EPOCH,
            // or anything else: the leader's view of the session is unknown, so the next fetch is a full one.
            if (errorCode == Errors.FETCH_SESSION_ID_NOT_FOUND.code()) {
                sessionId = INVALID_SESSION_ID;
            }
            reset();
            return false;
        }
        if (answered.isFull()) {
            sessionId = responseSessionId;
            // Without a session (the leader's cache is full) every fetch stays a full one that asks for a session.
            nextEpoch = sessionId == INVALID_SESSION_ID ? INITIAL_EPOCH : 1;
        } else {
            nextEpoch = nextEpoch == Integer.MAX_VALUE ? 1 : nextEpoch + 1;
        }
        sessionPartitions = pending;
        pending = null;
        return true;
    }

    /** The request failed without an answer (connection lost): the next fetch is a full one. */
    void reset() {
        inFlight = null;
        pending = null;
        nextEpoch = INITIAL_EPOCH;
        sessionPartitions = new LinkedHashMap<>();
    }

    int sessionId() {
        return sessionId;
    }
}
