package io.kraft.server.grpc;

import io.grpc.stub.StreamObserver;
import io.kraft.proto.membership.QuorumMembershipServiceGrpc;
import io.kraft.proto.membership.VoterChangeRequest;
import io.kraft.proto.membership.VoterChangeResponse;
import io.kraft.raft.NotLeaderException;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.RaftMessage;
import io.kraft.raft.Voter;
import io.kraft.raft.grpc.SenderCheck;
import io.kraft.storage.errors.Errors;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves voter changes (KIP-853) on a controller's CONTROLLER listener: the Raft leader adds, removes or updates a
 * voter through its {@link RaftDriver} and answers once the new set commits; any other node answers
 * NOT_LEADER_OR_FOLLOWER naming the leader it knows. Bad input is INVALID_REQUEST, state unchanged. Add and remove
 * come forwarded from brokers, which checked the client's ALTER on the cluster; UpdateVoter names its sender.
 */
public final class QuorumMembershipGrpcService extends QuorumMembershipServiceGrpc.QuorumMembershipServiceImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(QuorumMembershipGrpcService.class);

    private final String clusterId;
    private final Supplier<RaftDriver> driver;
    private final SenderCheck senders;

    /** @param driver this controller's Raft driver (read at each call: it is built after the transport) */
    public QuorumMembershipGrpcService(int nodeId, String clusterId, Supplier<RaftDriver> driver) {
        this.clusterId = clusterId;
        this.driver = driver;
        this.senders = new SenderCheck(nodeId);
    }

    @Override
    public void addVoter(VoterChangeRequest request, StreamObserver<VoterChangeResponse> observer) {
        serve("AddVoter", request, observer, raft -> raft.addVoter(new Voter(request.getVoterId(),
                directory(request), request.getEndpoint())));
    }

    @Override
    public void removeVoter(VoterChangeRequest request, StreamObserver<VoterChangeResponse> observer) {
        serve("RemoveVoter", request, observer, raft -> raft.removeVoter(request.getVoterId(), directory(request)));
    }

    @Override
    public void updateVoter(VoterChangeRequest request, StreamObserver<VoterChangeResponse> observer) {
        // Only the voter itself states where it listens (on TLS its certificate must name it).
        if (senders.denied(observer, "UpdateVoter", request.getVoterId())) {
            return;
        }
        serve("UpdateVoter", request, observer, raft -> raft.updateVoter(new Voter(request.getVoterId(),
                directory(request), request.getEndpoint())));
    }

    private void serve(String call, VoterChangeRequest request, StreamObserver<VoterChangeResponse> observer,
                       Function<RaftDriver, CompletableFuture<Long>> change) {
        String refusal = refusal(call, request);
        if (refusal != null) {
            Errors error = request.getClusterId().isEmpty() || request.getClusterId().equals(clusterId)
                    ? Errors.INVALID_REQUEST : Errors.INCONSISTENT_CLUSTER_ID;
            answer(observer, error, refusal, RaftMessage.NO_LEADER);
            return;
        }
        RaftDriver raft = driver.get();
        if (raft == null) {
            answer(observer, Errors.NOT_LEADER_OR_FOLLOWER, "this controller has not started", RaftMessage.NO_LEADER);
            return;
        }
        change.apply(raft).whenComplete((offset, failure) -> {
            if (failure == null) {
                LOG.info("{} of voter {} committed at offset {}", call, request.getVoterId(), offset);
                answer(observer, Errors.NONE, null, RaftMessage.NO_LEADER);
                return;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof NotLeaderException notLeader) {
                answer(observer, Errors.NOT_LEADER_OR_FOLLOWER, cause.getMessage(),
                        notLeader.knownLeaderId().orElse(RaftMessage.NO_LEADER));
                return;
            }
            Errors error = Errors.forException(cause);
            LOG.info("{} of voter {} refused: {} {}", call, request.getVoterId(), error, cause.getMessage());
            answer(observer, error, cause.getMessage(), RaftMessage.NO_LEADER);
        });
    }

    /** Why the request cannot be served at all, or null. */
    private String refusal(String call, VoterChangeRequest request) {
        if (!request.getClusterId().isEmpty() && !request.getClusterId().equals(clusterId)) {
            return call + " for cluster " + request.getClusterId() + ", but this is cluster " + clusterId;
        }
        if (request.getVoterId() < 0) {
            return call + " names voter id " + request.getVoterId();
        }
        if (request.getDirectoryId().size() != 16) {
            return call + " needs the voter's 16-byte directory id";
        }
        if (!call.equals("RemoveVoter") && !validEndpoint(request.getEndpoint())) {
            return call + " needs the voter's endpoint as host:port, not '" + request.getEndpoint() + "'";
        }
        return null;
    }

    private static boolean validEndpoint(String endpoint) {
        int colon = endpoint.lastIndexOf(':');
        if (colon <= 0 || colon == endpoint.length() - 1 || endpoint.length() > 300) {
            return false;
        }
        try {
            int port = Integer.parseInt(endpoint.substring(colon + 1));
            return port > 0 && port <= 65535;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static UUID directory(VoterChangeRequest request) {
        return Voter.directoryFromBytes(request.getDirectoryId().toByteArray());
    }

    private static void answer(StreamObserver<VoterChangeResponse> observer, Errors error, String message,
                               int leaderId) {
        observer.onNext(VoterChangeResponse.newBuilder().setErrorCode(error.code())
                .setErrorMessage(message == null ? "" : message).setLeaderId(leaderId).build());
        observer.onCompleted();
    }
}
