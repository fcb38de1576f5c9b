package io.kraft.broker.api.admin;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.RemoveRaftVoterRequest;
import io.kraft.broker.protocol.message.RemoveRaftVoterResponse;
import io.kraft.storage.errors.Errors;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers RemoveRaftVoter (v0, KIP-853; {@code Admin.removeRaftVoter}, {@code kafka-metadata-quorum
 * remove-controller}) by forwarding it to the metadata quorum's leader. The request names no timeout: the leader
 * gets the clients' default of 30 s.
 */
public final class RemoveRaftVoterHandler
        implements AsyncRequestHandler<RemoveRaftVoterRequest, RemoveRaftVoterResponse> {
    private static final Logger LOG = LoggerFactory.getLogger(RemoveRaftVoterHandler.class);
    private static final long TIMEOUT_MS = 30_000;

    private final Supplier<QuorumMembership> membership;

    /** @param membership read at each request: the node assembly sets it once the quorum is reachable */
    public RemoveRaftVoterHandler(Supplier<QuorumMembership> membership) {
        this.membership = membership;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.REMOVE_RAFT_VOTER;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<RemoveRaftVoterRequest> request) {
        RemoveRaftVoterRequest body = request.body();
        LOG.info("RemoveRaftVoter from {}: voter {} directory {}", context.clientAddress(), body.voterId(),
                body.voterDirectoryId());
        return VoterChangeOutcome.of(membership.get().removeVoter(body.clusterId(), body.voterId(),
                        body.voterDirectoryId()), TIMEOUT_MS)
                .thenApply(outcome -> HandlerResponse.of(new RemoveRaftVoterResponse()
                        .setErrorCode(outcome.error().code()).setErrorMessage(outcome.message())));
    }

    @Override
    public Optional<RemoveRaftVoterResponse> errorResponse(ApiRequest<RemoveRaftVoterRequest> request, Errors error) {
        return Optional.of(new RemoveRaftVoterResponse().setErrorCode(error.code()));
    }
}
