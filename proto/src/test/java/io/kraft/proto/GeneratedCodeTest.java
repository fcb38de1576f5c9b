package io.kraft.proto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.proto.raft.RaftServiceGrpc;
import io.kraft.proto.raft.VoteRequest;
import org.junit.jupiter.api.Test;

class GeneratedCodeTest {
    @Test
    void messagesRoundTripThroughTheirWireForm() throws Exception {
        VoteRequest request = VoteRequest.newBuilder()
                .setClusterId("c1").setCandidateId(3).setCandidateEpoch(7)
                .setLastOffset(42).setLastOffsetEpoch(6).setPreVote(true).build();
        VoteRequest parsed = VoteRequest.parseFrom(request.toByteArray());
        assertEquals(request, parsed);
        assertTrue(parsed.getPreVote());
    }

    @Test
    void grpcServiceDescriptorIsGenerated() {
        assertEquals("kraft.raft.RaftService", RaftServiceGrpc.SERVICE_NAME);
        assertEquals("kraft.raft.RaftService/Vote", RaftServiceGrpc.getVoteMethod().getFullMethodName());
        assertEquals("kraft.raft.RaftService/Fetch", RaftServiceGrpc.getFetchMethod().getFullMethodName());
        assertEquals(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING,
                RaftServiceGrpc.getFetchSnapshotMethod().getType());
    }
}
