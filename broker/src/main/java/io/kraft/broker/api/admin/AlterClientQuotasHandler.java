package io.kraft.broker.api.admin;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.AlterClientQuotasRequest;
import io.kraft.broker.protocol.message.AlterClientQuotasResponse;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.quota.ClientQuotaAlteration;
import io.kraft.metadata.quota.ClientQuotaEntity;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers AlterClientQuotas (v0-1) through the active {@link Controller}, which validates each entry's entity and keys
 * (INVALID_REQUEST with the reason) and writes one record per key; answered once they commit. Needs ALTER_CONFIGS on
 * the cluster. An entry naming an entity type twice is refused here, since it has no entity to send.
 */
public final class AlterClientQuotasHandler
        implements AsyncRequestHandler<AlterClientQuotasRequest, AlterClientQuotasResponse> {
    private final Controller controller;

    public AlterClientQuotasHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.ALTER_CLIENT_QUOTAS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<AlterClientQuotasRequest> request) {
        List<AlterClientQuotasRequest.EntryData> entries = request.body().entries();
        if (!context.authorizeCluster(AclOperation.ALTER_CONFIGS)) {
            return done(allFailed(entries, Errors.CLUSTER_AUTHORIZATION_FAILED, null));
        }
        ApiError[] results = new ApiError[entries.size()];
        List<ClientQuotaAlteration> forwarded = new ArrayList<>();
        List<Integer> forwardedIndexes = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            AlterClientQuotasRequest.EntryData entry = entries.get(i);
            Map<String, String> names = new HashMap<>();
            for (var entity : entry.entity()) {
                if (names.containsKey(entity.entityType())) {
                    results[i] = ApiError.of(Errors.INVALID_REQUEST, "Duplicate " + entity.entityType()
                            + " entity type in one client quota entity");
                }
                names.put(entity.entityType(), entity.entityName());
            }
            if (results[i] == null) {
                forwarded.add(new ClientQuotaAlteration(new ClientQuotaEntity(names), entry.ops().stream()
                        .map(op -> new ClientQuotaAlteration.Op(op.key(), op.remove() ? null : op.value()))
                        .toList()));
                forwardedIndexes.add(i);
            }
        }
        if (forwarded.isEmpty()) {
            return done(response(entries, results));
        }
        return ControllerErrors.outcome(controller.alterClientQuotas(forwarded, request.body().validateOnly()),
                CreateAclsHandler.CONTROLLER_TIMEOUT_MS).thenApply(outcome -> {
                    for (int j = 0; j < forwardedIndexes.size(); j++) {
                        results[forwardedIndexes.get(j)] = outcome.succeeded() ? outcome.value().get(j)
                                : ApiError.of(Errors.forCode(outcome.errorCode()), outcome.errorMessage());
                    }
                    return HandlerResponse.of(response(entries, results));
                });
    }

    @Override
    public Optional<AlterClientQuotasResponse> errorResponse(ApiRequest<AlterClientQuotasRequest> request,
                                                             Errors error) {
        return Optional.of(allFailed(request.body().entries(), error, null));
    }

    private static AlterClientQuotasResponse allFailed(List<AlterClientQuotasRequest.EntryData> entries,
                                                       Errors error, String message) {
        ApiError[] results = new ApiError[entries.size()];
        java.util.Arrays.fill(results, ApiError.of(error, message));
        return response(entries, results);
    }

    private static AlterClientQuotasResponse response(List<AlterClientQuotasRequest.EntryData> entries,
                                                      ApiError[] results) {
        AlterClientQuotasResponse response = new AlterClientQuotasResponse();
        for (int i = 0; i < entries.size(); i++) {
            AlterClientQuotasResponse.EntryData data = new AlterClientQuotasResponse.EntryData()
                    .setErrorCode(results[i].error().code()).setErrorMessage(results[i].message());
            for (var entity : entries.get(i).entity()) {
                data.entity().add(new AlterClientQuotasResponse.EntityData().setEntityType(entity.entityType())
                        .setEntityName(entity.entityName()));
            }
            response.entries().add(data);
        }
        return response;
    }

    private static CompletableFuture<HandlerResponse> done(AlterClientQuotasResponse response) {
        return CompletableFuture.completedFuture(HandlerResponse.of(response));
    }
}
