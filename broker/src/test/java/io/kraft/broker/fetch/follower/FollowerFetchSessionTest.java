package io.kraft.broker.fetch.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.fetch.follower.FollowerFetchSession.PartitionFetch;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The follower's KIP-227 session: full then incremental requests, forgotten partitions, and starting over. */
class FollowerFetchSessionTest {
    private static final UUID TOPIC = UUID.randomUUID();
    private static final short NONE = Errors.NONE.code();

    private static PartitionFetch fetch(int partition, long offset) {
        return new PartitionFetch(TOPIC, partition, 3, offset, 3, 0L, 1024);
    }

    private static Map<TopicPartition, PartitionFetch> wanted(long... offsets) {
        Map<TopicPartition, PartitionFetch> wanted = new LinkedHashMap<>();
        for (int p = 0; p < offsets.length; p++) {
            wanted.put(new TopicPartition("t", p), fetch(p, offsets[p]));
        }
        return wanted;
    }

    @Test
    void theFirstRequestIsFullAndLaterOnesNameOnlyWhatChanged() {
        FollowerFetchSession session = new FollowerFetchSession();
        FollowerFetchSession.Request first = session.next(wanted(0, 0, 0));
        assertTrue(first.isFull());
        assertEquals(3, first.toSend().size());
        assertTrue(session.onResponse(NONE, 77));

        FollowerFetchSession.Request second = session.next(wanted(0, 5, 0));
        assertEquals(77, second.sessionId());
        assertEquals(1, second.epoch());
        assertEquals(Map.of(new TopicPartition("t", 1), fetch(1, 5)), second.toSend());
        assertTrue(session.onResponse(NONE, 77));

        FollowerFetchSession.Request idle = session.next(wanted(0, 5, 0));
        assertEquals(2, idle.epoch());
        assertTrue(idle.toSend().isEmpty(), "nothing changed, nothing named");
        assertTrue(idle.toForget().isEmpty());
    }

    @Test
    void aPartitionNoLongerFetchedIsForgottenAndARemovedOneAddedBack() {
        FollowerFetchSession session = new FollowerFetchSession();
        session.next(wanted(0, 0));
        session.onResponse(NONE, 5);
        Map<TopicPartition, PartitionFetch> onlyFirst = wanted(0);
        FollowerFetchSession.Request dropped = session.next(onlyFirst);
        assertEquals(List.of(fetch(1, 0)), dropped.toForget());
        assertTrue(dropped.toSend().isEmpty());
        session.onResponse(NONE, 5);
        FollowerFetchSession.Request back = session.next(wanted(0, 0));
        assertEquals(Map.of(new TopicPartition("t", 1), fetch(1, 0)), back.toSend());
        assertTrue(back.toForget().isEmpty());
    }

    @Test
    void sessionErrorsAndLostConnectionsStartOverWithAFullFetch() {
        FollowerFetchSession session = new FollowerFetchSession();
        session.next(wanted(0, 0));
        session.onResponse(NONE, 9);
        session.next(wanted(1, 0));
        assertFalse(session.onResponse(Errors.FETCH_SESSION_ID_NOT_FOUND.code(), 0));
        FollowerFetchSession.Request restart = session.next(wanted(1, 0));
        assertTrue(restart.isFull());
        assertEquals(0, restart.sessionId());
        assertEquals(2, restart.toSend().size());
        session.onResponse(NONE, 10);

        session.next(wanted(2, 0));
        assertFalse(session.onResponse(Errors.INVALID_FETCH_SESSION_EPOCH.code(), 0));
        FollowerFetchSession.Request closing = session.next(wanted(2, 0));
        assertTrue(closing.isFull());
        assertEquals(10, closing.sessionId(), "epoch 0 with the old id frees the leader's slot");
        session.onResponse(NONE, 11);

        session.next(wanted(3, 0));
        session.reset();
        assertTrue(session.next(wanted(3, 0)).isFull());
    }

    @Test
    void withoutASessionFromTheLeaderEveryFetchIsFull() {
        FollowerFetchSession session = new FollowerFetchSession();
        session.next(wanted(0));
        session.onResponse(NONE, 0);
        FollowerFetchSession.Request again = session.next(wanted(0));
        assertTrue(again.isFull());
        assertEquals(1, again.toSend().size());
    }
}
