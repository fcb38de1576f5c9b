package io.kraft.raft.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kraft.proto.raft.BeginQuorumEpochRequest;
import io.kraft.proto.raft.EndQuorumEpochRequest;
import io.kraft.proto.raft.FetchRequest;
import io.kraft.proto.raft.FetchSnapshotRequest;
import io.kraft.proto.raft.VoteRequest;
import java.util.Collections;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Requests a correct member never sends are refused by the transport, each with a reason naming the field. */
class RaftRequestChecksTest {
    private final RaftRequestChecks checks = new RaftRequestChecks(1, Set.of(1, 2, 3));

    @Test
    void votesAndQuorumEpochsComeFromVotersWithEpochsAndOffsetsInBounds() {
        assertNull(checks.vote(VoteRequest.newBuilder().setCandidateId(2).setCandidateEpoch(5).setLastOffset(10)
                .setLastOffsetEpoch(4).build()));
        assertEquals("candidate 7 is not a voter", prefix(checks.vote(VoteRequest.newBuilder().setCandidateId(7)
                .build()), 26));
        assertEquals("epoch -1 is negative", checks.vote(VoteRequest.newBuilder().setCandidateId(2)
                .setCandidateEpoch(-1).build()));
        assertEquals("last offset -3 is negative", checks.vote(VoteRequest.newBuilder().setCandidateId(2)
                .setLastOffset(-3).build()));
        assertEquals("leader 0 is not a voter", prefix(checks.beginQuorumEpoch(BeginQuorumEpochRequest.newBuilder()
                .setLeaderId(0).build()), 23));
        assertEquals("candidate 1 is this node", checks.vote(VoteRequest.newBuilder().setCandidateId(1).build()),
                "a request claiming to come from this node is forged");
        assertEquals("replica 1 is this node", checks.fetch(FetchRequest.newBuilder().setReplicaId(1).build()));
        assertEquals("100 preferred successors", checks.endQuorumEpoch(EndQuorumEpochRequest.newBuilder()
                .setLeaderId(2).addAllPreferredSuccessors(Collections.nCopies(100, 2)).build()));
    }

    @Test
    void fetchesComeFromAnyNodeIdWithPositionsInBounds() {
        assertNull(checks.fetch(FetchRequest.newBuilder().setReplicaId(1000).setEpoch(3).setFetchOffset(7)
                .setLastFetchedEpoch(2).build()));
        assertEquals("replica id -1 is negative", checks.fetch(FetchRequest.newBuilder().setReplicaId(-1).build()));
        assertEquals("fetch offset -9 is negative", checks.fetch(FetchRequest.newBuilder().setReplicaId(4)
                .setFetchOffset(-9).build()));
        assertEquals("max bytes -1 is negative", checks.fetchSnapshot(FetchSnapshotRequest.newBuilder()
                .setReplicaId(4).setMaxBytes(-1).build()));
        assertEquals("position -1 is negative", checks.fetchSnapshot(FetchSnapshotRequest.newBuilder()
                .setReplicaId(4).setPosition(-1).build()));
    }

    private static String prefix(String text, int length) {
        return text.substring(0, Math.min(length, text.length()));
    }
}
