package io.kraft.broker.replica;

import static io.kraft.broker.replica.ReplicatedLeaderHarness.LEADER;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.broker.fetch.PartitionRead;
import io.kraft.storage.errors.Errors;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KIP-903 on the leader: broker 3 restarts with an empty log and registers again (broker epoch 1 → 2). A fetch its
 * old incarnation sent, naming epoch 1 and the old log's end, must not put it back into the ISR nor count for the
 * high watermark; the new incarnation joins once its own fetches have caught up, and every expansion tells the
 * controller the epoch each member fetched with.
 */
class StaleIncarnationFetchTest {
    private static final int STEADY = 2;
    private static final int RESTARTED = 3;

    @TempDir
    Path logDir;

    private ReplicatedLeaderHarness harness;

    @BeforeEach
    void fiveRecordsReplicatedToTheIsr() throws Exception {
        harness = new ReplicatedLeaderHarness(logDir, List.of(LEADER, STEADY));
        harness.append(5);
        harness.followerFetch(STEADY, 1, 5, 0);
        assertEquals(5, harness.partition().highWatermark());
    }

    @AfterEach
    void close() {
        harness.close();
    }

    @Test
    void aFetchFromTheOldIncarnationIsRefusedAndMovesNothing() throws Exception {
        harness.registerBroker(RESTARTED, 2);

        PartitionRead stale = harness.followerFetch(RESTARTED, 1, 5, 0);
        assertEquals(Errors.STALE_BROKER_EPOCH, stale.error());
        assertEquals(0, stale.sizeBytes());
        assertEquals(List.of(), harness.proposals, "the old incarnation's log end says nothing of the new one's");

        harness.followerFetch(RESTARTED, 2, 0, -1);
        assertEquals(List.of(), harness.proposals, "the new incarnation starts empty, behind the high watermark");
        harness.followerFetch(RESTARTED, 2, 5, 0);
        assertEquals(1, harness.proposals.size());
        assertEquals(List.of(LEADER, STEADY, RESTARTED), harness.proposals.get(0).request().newIsr());
        assertEquals(List.of(-1L, 1L, 2L), harness.proposals.get(0).request().newIsrBrokerEpochs(),
                "the epochs the members fetched with, for the controller to check (unknown for the leader)");
    }

    @Test
    void aNewerIncarnationThanTheMetadataHereKnowsWaitsForTheMetadataBeforeJoining() throws Exception {
        harness.followerFetch(RESTARTED, 2, 5, 0);
        assertEquals(List.of(), harness.proposals, "epoch 2 is not the registration this leader knows (1)");
        harness.registerBroker(RESTARTED, 2);
        harness.followerFetch(RESTARTED, 2, 5, 0);
        assertEquals(List.of(-1L, 1L, 2L), harness.proposals.get(0).request().newIsrBrokerEpochs());
    }

    @Test
    void aFetchWithoutABrokerEpochIsNotChecked() throws Exception {
        harness.registerBroker(RESTARTED, 2);
        harness.followerFetch(RESTARTED, -1, 5, 0);
        assertEquals(List.of(-1L, 1L, -1L), harness.proposals.get(0).request().newIsrBrokerEpochs(),
                "as in Kafka, -1 is left to the controller, which does not check it either");
    }
}
