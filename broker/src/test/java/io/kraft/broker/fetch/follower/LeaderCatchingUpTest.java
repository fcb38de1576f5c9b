package io.kraft.broker.fetch.follower;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.replica.ReplicationConfig;
import io.kraft.storage.errors.Errors;
import org.junit.jupiter.api.Test;

/**
 * A leader that has not applied its leadership yet (the metadata reached the follower first) answers
 * NOT_LEADER_OR_FOLLOWER or UNKNOWN_LEADER_EPOCH: the follower asks again within moments, not after
 * {@code replica.fetch.backoff.ms}; other errors keep that backoff.
 */
class LeaderCatchingUpTest {

    @Test
    void aLeaderNotYetLeadingIsAskedAgainSoon() {
        assertTrue(ReplicaFetcherThread.leaderCatchingUp(Errors.NOT_LEADER_OR_FOLLOWER.code()));
        assertTrue(ReplicaFetcherThread.leaderCatchingUp(Errors.UNKNOWN_LEADER_EPOCH.code()));
        assertTrue(ReplicaFetcherThread.LEADER_CATCHING_UP_BACKOFF_MS < ReplicationConfig.defaults().fetchBackoffMs());
    }

    @Test
    void otherErrorsKeepTheConfiguredBackoff() {
        assertFalse(ReplicaFetcherThread.leaderCatchingUp(Errors.FENCED_LEADER_EPOCH.code()));
        assertFalse(ReplicaFetcherThread.leaderCatchingUp(Errors.KAFKA_STORAGE_ERROR.code()));
        assertFalse(ReplicaFetcherThread.leaderCatchingUp(Errors.NONE.code()));
    }
}
