package io.kraft.broker.api.admin;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.AddRaftVoterRequest;
import io.kraft.broker.protocol.message.AddRaftVoterResponse;
import io.kraft.storage.errors.Errors;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers AddRaftVoter (v0-1, KIP-853; {@code Admin.addRaftVoter}, {@code kafka-metadata-quorum add-controller}) by
 * forwarding it to the metadata quorum's leader, which adds the voter once it has caught up as an observer. The
 * voter is reached at its first listener. v1's {@code ackWhenCommitted=false} may answer before the commit; we
 * always answer after it, which only makes the answer later.
 */
public final class AddRaftVoterHandler implements AsyncRequestHandler<AddRaftVoterRequest, AddRaftVoterResponse> {
    private static final Logger LOG = LoggerFactory.getLogger(AddRaftVoterHandler.class);

    private final Supplier<QuorumMembership> membership;

    /** @param membership read at each request: the node assembly sets it once the quorum is reachable */
    public AddRaftVoterHandler(Supplier<QuorumMembership> membership) {
        this.membership = membership;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.ADD_RAFT_VOTER;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<AddRaftVoterRequest> request) {
        AddRaftVoterRequest body = request.body();
        if (body.voterId() < 0 || body.listeners().isEmpty() || body.listeners().get(0).host().isEmpty()) {
            return answer(Errors.INVALID_REQUEST, "a voter needs an id >= 0 and at least one listener with a host");
        }
        AddRaftVoterRequest.Listener listener = body.listeners().get(0);
        String endpoint = listener.host() + ":" + listener.port();
        LOG.info("AddRaftVoter from {}: voter {} directory {} at {}", context.clientAddress(), body.voterId(),
                body.voterDirectoryId(), endpoint);
        return VoterChangeOutcome.of(membership.get().addVoter(body.clusterId(), body.voterId(),
                        body.voterDirectoryId(), endpoint), body.timeoutMs())
                .thenApply(outcome -> HandlerResponse.of(new AddRaftVoterResponse()
                        .setErrorCode(outcome.error().code()).setErrorMessage(outcome.message())));
    }

    private static CompletableFuture<HandlerResponse> answer(Errors error, String message) {
        return CompletableFuture.completedFuture(HandlerResponse.of(new AddRaftVoterResponse()
                .setErrorCode(error.code()).setErrorMessage(message)));
    }

    @Override
    public Optional<AddRaftVoterResponse> errorResponse(ApiRequest<AddRaftVoterRequest> request, Errors error) {
        return Optional.of(new AddRaftVoterResponse().setErrorCode(error.code()));
    }
}
