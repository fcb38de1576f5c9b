package io.kraft.broker.api.auth;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.AlterUserScramCredentialsRequest;
import io.kraft.broker.protocol.message.AlterUserScramCredentialsResponse;
import io.kraft.broker.protocol.message.AlterUserScramCredentialsResponse.AlterUserScramCredentialsResult;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.ScramAlteration;
import io.kraft.storage.errors.Errors;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Answers AlterUserScramCredentials (v0, KIP-554) through the active controller, which checks each user's
 * alterations (iterations 4096..16384, the credential to delete exists, no user and mechanism twice) and commits the
 * credential records. The request carries salted passwords (the client derives them), never passwords.
 */
public final class AlterUserScramCredentialsHandler
        implements AsyncRequestHandler<AlterUserScramCredentialsRequest, AlterUserScramCredentialsResponse> {
    private final Controller controller;

    public AlterUserScramCredentialsHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.ALTER_USER_SCRAM_CREDENTIALS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<AlterUserScramCredentialsRequest> request) {
        List<ScramAlteration> alterations = new ArrayList<>();
        Set<String> users = new LinkedHashSet<>();
        for (var deletion : request.body().deletions()) {
            alterations.add(ScramAlteration.deletion(deletion.name(), deletion.mechanism()));
            users.add(deletion.name());
        }
        for (var upsertion : request.body().upsertions()) {
            alterations.add(ScramAlteration.upsertion(upsertion.name(), upsertion.mechanism(),
                    upsertion.iterations(), bytes(upsertion.salt()), bytes(upsertion.saltedPassword())));
            users.add(upsertion.name());
        }
        if (alterations.isEmpty()) {
            return CompletableFuture.completedFuture(HandlerResponse.of(new AlterUserScramCredentialsResponse()));
        }
        // Kafka asks Alter on the cluster to change users' credentials.
        if (!context.authorizeCluster(AclOperation.ALTER)) {
            return CompletableFuture.completedFuture(HandlerResponse.of(
                    errorResponse(request, Errors.CLUSTER_AUTHORIZATION_FAILED).orElseThrow()));
        }
        return controller.alterUserScramCredentials(alterations).handle((outcomes, failure) -> {
            ApiError whole = failure == null ? ApiError.NONE : errorOf(failure);
            AlterUserScramCredentialsResponse response = new AlterUserScramCredentialsResponse();
            for (String user : users) {
                ApiError outcome = outcomes == null ? whole : outcomes.getOrDefault(user, whole);
                response.results().add(new AlterUserScramCredentialsResult().setUser(user)
                        .setErrorCode(outcome.error().code()).setErrorMessage(outcome.message()));
            }
            return HandlerResponse.of(response);
        });
    }

    private static ApiError errorOf(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause instanceof ControllerException controllerError) {
            return controllerError.apiError();
        }
        return ApiError.of(Errors.UNKNOWN_SERVER_ERROR, String.valueOf(cause.getMessage()));
    }

    /** A copy: the request's bytes are views of the network buffer, valid only until {@code handle} returns. */
    private static byte[] bytes(ByteBuffer buffer) {
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return copy;
    }

    @Override
    public Optional<AlterUserScramCredentialsResponse> errorResponse(
            ApiRequest<AlterUserScramCredentialsRequest> request, Errors error) {
        AlterUserScramCredentialsResponse response = new AlterUserScramCredentialsResponse();
        Set<String> users = new LinkedHashSet<>();
        request.body().deletions().forEach(d -> users.add(d.name()));
        request.body().upsertions().forEach(u -> users.add(u.name()));
        users.forEach(user -> response.results().add(new AlterUserScramCredentialsResult().setUser(user)
                .setErrorCode(error.code())));
        return Optional.of(response);
    }
}
