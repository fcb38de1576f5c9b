package io.kraft.broker.group.share;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.storage.errors.Errors;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ShareSessionsTest {
    private static final SharePartitionKey P0 = new SharePartitionKey("g", new UUID(0, 1), 0);
    private static final SharePartitionKey P1 = new SharePartitionKey("g", new UUID(0, 1), 1);
    private final ShareSessions sessions = new ShareSessions(2, 1_000);
    private final ShareSessions.Key a = new ShareSessions.Key("g", "a");

    @Test
    void epochsMoveOnOneAtATime() {
        assertEquals(Errors.NONE, sessions.open(a, Set.of(P0), 0).error());
        assertEquals(Errors.INVALID_SHARE_SESSION_EPOCH, sessions.next(a, 2, Set.of(), Set.of(), 0).error());
        ShareSessions.Step step = sessions.next(a, 1, Set.of(P1), Set.of(P0), 0);
        assertEquals(Errors.NONE, step.error());
        assertEquals(Set.of(P1), step.session().partitions());
        assertEquals(Errors.INVALID_SHARE_SESSION_EPOCH, sessions.next(a, 1, Set.of(), Set.of(), 0).error());
        assertEquals(Errors.NONE, sessions.next(a, 2, Set.of(), Set.of(), 0).error());
    }

    @Test
    void closingEndsTheSession() {
        sessions.open(a, Set.of(P0), 0);
        assertEquals(Errors.NONE, sessions.close(a).error());
        assertEquals(Errors.SHARE_SESSION_NOT_FOUND, sessions.close(a).error());
        assertEquals(Errors.SHARE_SESSION_NOT_FOUND, sessions.next(a, 1, Set.of(), Set.of(), 0).error());
    }

    @Test
    void theLimitEvictsIdleSessionsOnly() {
        sessions.open(a, Set.of(P0), 0);
        sessions.open(new ShareSessions.Key("g", "b"), Set.of(P0), 500);
        assertEquals(Errors.SHARE_SESSION_LIMIT_REACHED,
                sessions.open(new ShareSessions.Key("g", "c"), Set.of(P0), 900).error());
        assertEquals(Errors.NONE, sessions.open(new ShareSessions.Key("g", "c"), Set.of(P0), 1_200).error());
        assertEquals(Errors.SHARE_SESSION_NOT_FOUND, sessions.next(a, 1, Set.of(), Set.of(), 1_200).error());
    }
}
