package io.kraft.broker.api.admin;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.CreateAclsRequest;
import io.kraft.broker.protocol.message.CreateAclsResponse;
import io.kraft.broker.protocol.message.CreateAclsResponse.AclCreationResult;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.Controller;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers CreateAcls (v1-3) through the active {@link Controller}, which validates each ACL (INVALID_REQUEST with the
 * reason) and writes the new ones as records; answered once they commit. Needs ALTER on the cluster.
 */
public final class CreateAclsHandler implements AsyncRequestHandler<CreateAclsRequest, CreateAclsResponse> {
    /** How long the broker waits for the controller (the request has no timeout of its own). */
    static final long CONTROLLER_TIMEOUT_MS = 30_000;

    private final Controller controller;

    public CreateAclsHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.CREATE_ACLS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<CreateAclsRequest> request) {
        List<CreateAclsRequest.AclCreation> creations = request.body().creations();
        if (!context.authorizationEnabled()) {
            return done(allFailed(creations.size(), Errors.SECURITY_DISABLED, AclsWire.NO_AUTHORIZER));
        }
        if (!context.authorizeCluster(AclOperation.ALTER)) {
            return done(allFailed(creations.size(), Errors.CLUSTER_AUTHORIZATION_FAILED, null));
        }
        if (creations.isEmpty()) {
            return done(new CreateAclsResponse());
        }
        return ControllerErrors.outcome(controller.createAcls(creations.stream().map(AclsWire::acl).toList()),
                CONTROLLER_TIMEOUT_MS).thenApply(outcome -> {
                    if (!outcome.succeeded()) {
                        return HandlerResponse.of(allFailed(creations.size(), Errors.forCode(outcome.errorCode()),
                                outcome.errorMessage()));
                    }
                    CreateAclsResponse response = new CreateAclsResponse();
                    for (ApiError result : outcome.value()) {
                        response.results().add(new AclCreationResult().setErrorCode(result.error().code())
                                .setErrorMessage(result.message()));
                    }
                    return HandlerResponse.of(response);
                });
    }

    @Override
    public Optional<CreateAclsResponse> errorResponse(ApiRequest<CreateAclsRequest> request, Errors error) {
        return Optional.of(allFailed(request.body().creations().size(), error, null));
    }

    private static CreateAclsResponse allFailed(int count, Errors error, String message) {
        CreateAclsResponse response = new CreateAclsResponse();
        for (int i = 0; i < count; i++) {
            response.results().add(new AclCreationResult().setErrorCode(error.code()).setErrorMessage(message));
        }
        return response;
    }

    private static CompletableFuture<HandlerResponse> done(CreateAclsResponse response) {
        return CompletableFuture.completedFuture(HandlerResponse.of(response));
    }
}
