package io.kraft.broker.api.admin;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DeleteAclsRequest;
import io.kraft.broker.protocol.message.DeleteAclsResponse;
import io.kraft.broker.protocol.message.DeleteAclsResponse.DeleteAclsFilterResult;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.controller.AclDeleteResult;
import io.kraft.metadata.controller.Controller;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers DeleteAcls (v1-3) through the active {@link Controller}: each filter (ANY and MATCH as Kafka defines them)
 * deletes the ACLs it matches, listed in its result once the deletions commit. Needs ALTER on the cluster.
 */
public final class DeleteAclsHandler implements AsyncRequestHandler<DeleteAclsRequest, DeleteAclsResponse> {
    private final Controller controller;

    public DeleteAclsHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DELETE_ACLS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<DeleteAclsRequest> request) {
        List<DeleteAclsRequest.DeleteAclsFilter> filters = request.body().filters();
        if (!context.authorizationEnabled()) {
            return done(allFailed(filters.size(), Errors.SECURITY_DISABLED, AclsWire.NO_AUTHORIZER));
        }
        if (!context.authorizeCluster(AclOperation.ALTER)) {
            return done(allFailed(filters.size(), Errors.CLUSTER_AUTHORIZATION_FAILED, null));
        }
        if (filters.isEmpty()) {
            return done(new DeleteAclsResponse());
        }
        return ControllerErrors.outcome(controller.deleteAcls(filters.stream().map(AclsWire::filter).toList()),
                CreateAclsHandler.CONTROLLER_TIMEOUT_MS).thenApply(outcome -> {
                    if (!outcome.succeeded()) {
                        return HandlerResponse.of(allFailed(filters.size(), Errors.forCode(outcome.errorCode()),
                                outcome.errorMessage()));
                    }
                    DeleteAclsResponse response = new DeleteAclsResponse();
                    for (AclDeleteResult result : outcome.value()) {
                        DeleteAclsFilterResult filterResult = new DeleteAclsFilterResult()
                                .setErrorCode(result.error().error().code()).setErrorMessage(result.error().message());
                        result.deleted().forEach(acl -> filterResult.matchingAcls().add(AclsWire.matching(acl)));
                        response.filterResults().add(filterResult);
                    }
                    return HandlerResponse.of(response);
                });
    }

    @Override
    public Optional<DeleteAclsResponse> errorResponse(ApiRequest<DeleteAclsRequest> request, Errors error) {
        return Optional.of(allFailed(request.body().filters().size(), error, null));
    }

    private static DeleteAclsResponse allFailed(int count, Errors error, String message) {
        DeleteAclsResponse response = new DeleteAclsResponse();
        for (int i = 0; i < count; i++) {
            response.filterResults().add(new DeleteAclsFilterResult().setErrorCode(error.code())
                    .setErrorMessage(message));
        }
        return response;
    }

    private static CompletableFuture<HandlerResponse> done(DeleteAclsResponse response) {
        return CompletableFuture.completedFuture(HandlerResponse.of(response));
    }
}
