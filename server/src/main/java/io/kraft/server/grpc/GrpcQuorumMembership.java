package io.kraft.server.grpc;

import com.google.protobuf.ByteString;
import io.grpc.stub.StreamObserver;
import io.kraft.broker.api.admin.QuorumMembership;
import io.kraft.proto.membership.QuorumMembershipServiceGrpc;
import io.kraft.proto.membership.VoterChangeRequest;
import io.kraft.proto.membership.VoterChangeResponse;
import io.kraft.raft.Voter;
import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Forwards a broker's AddRaftVoter and RemoveRaftVoter to the metadata quorum's leader over the CONTROLLER listener
 * ({@code QuorumMembershipService}). A node that is no longer the leader answers NOT_LEADER_OR_FOLLOWER, which the
 * admin client hears as NOT_CONTROLLER and retries once the leader is known again.
 */
public final class GrpcQuorumMembership implements QuorumMembership {
    private final LeaderChannels leaders;
    private final String clusterId;
    private final long deadlineMs;

    /**
     * @param leaders the channels to the leader, owned (and closed) by the caller
     * @param deadlineMs how long a change may take at the leader (the new voter's catch-up check and the commit)
     */
    GrpcQuorumMembership(LeaderChannels leaders, String clusterId, long deadlineMs) {
        this.leaders = leaders;
        this.clusterId = clusterId;
        this.deadlineMs = deadlineMs;
    }

    @Override
    public CompletableFuture<Void> addVoter(String requestClusterId, int voterId, UUID directoryId, String endpoint) {
        VoterChangeRequest request = request(requestClusterId, voterId, directoryId).setEndpoint(endpoint).build();
        return call((stub, observer) -> stub.addVoter(request, observer));
    }

    @Override
    public CompletableFuture<Void> removeVoter(String requestClusterId, int voterId, UUID directoryId) {
        VoterChangeRequest request = request(requestClusterId, voterId, directoryId).build();
        return call((stub, observer) -> stub.removeVoter(request, observer));
    }

    /**
     * UpdateRaftVoter (KIP-853): voter {@code voterId} with directory {@code directoryId} now listens at
     * {@code endpoint}. Not a Kafka admin API: a voter sends it itself after a restart with other listeners.
     */
    public CompletableFuture<Void> updateVoter(int voterId, UUID directoryId, String endpoint) {
        VoterChangeRequest request = request(null, voterId, directoryId).setEndpoint(endpoint).build();
        return call((stub, observer) -> stub.updateVoter(request, observer));
    }

    private VoterChangeRequest.Builder request(String requestClusterId, int voterId, UUID directoryId) {
        // The admin request's cluster id is nullable: none means this cluster.
        return VoterChangeRequest.newBuilder().setClusterId(requestClusterId == null ? clusterId : requestClusterId)
                .setVoterId(voterId).setDirectoryId(ByteString.copyFrom(Voter.directoryBytes(directoryId)));
    }

    private CompletableFuture<Void> call(BiConsumer<QuorumMembershipServiceGrpc.QuorumMembershipServiceStub,
            StreamObserver<VoterChangeResponse>> send) {
        OptionalInt leader = leaders.leader();
        if (leader.isEmpty()) {
            return CompletableFuture.failedFuture(new ApiException(Errors.NOT_CONTROLLER,
                    "the metadata quorum has no leader now"));
        }
        CompletableFuture<Void> answer = new CompletableFuture<>();
        StreamObserver<VoterChangeResponse> observer = new StreamObserver<>() {
            @Override
            public void onNext(VoterChangeResponse response) {
                Errors error = Errors.forCode((short) response.getErrorCode());
                if (error == Errors.NONE) {
                    answer.complete(null);
                } else {
                    answer.completeExceptionally(new ApiException(error == Errors.NOT_LEADER_OR_FOLLOWER
                            ? Errors.NOT_CONTROLLER : error, response.getErrorMessage()));
                }
            }

            @Override
            public void onError(Throwable error) {
                answer.completeExceptionally(new ApiException(Errors.NOT_CONTROLLER, "controller "
                        + leader.getAsInt() + " did not answer: " + error.getMessage()));
            }

            @Override
            public void onCompleted() {
                answer.complete(null);
            }
        };
        send.accept(QuorumMembershipServiceGrpc.newStub(leaders.channel(leader.getAsInt()))
                .withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS), observer);
        return answer;
    }
}
