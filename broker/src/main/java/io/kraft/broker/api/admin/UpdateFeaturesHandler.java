package io.kraft.broker.api.admin;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.UpdateFeaturesRequest;
import io.kraft.broker.protocol.message.UpdateFeaturesResponse;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.FeatureControlManager.FeatureUpdate;
import io.kraft.storage.errors.Errors;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers UpdateFeatures (v0-2, {@code kafka-features.sh upgrade/downgrade}, {@code Admin.updateFeatures}) through the
 * controller, which finalizes every level or, when one is refused (INVALID_UPDATE_VERSION: unknown feature, level not
 * supported, downgrade not asked for), none. v0-1 answer per feature; v2 only the first refusal, at the top.
 */
public final class UpdateFeaturesHandler implements AsyncRequestHandler<UpdateFeaturesRequest, UpdateFeaturesResponse> {
    /** v1+ upgrade types: 1 upgrade, 2 safe downgrade, 3 unsafe downgrade. */
    private static final byte UPGRADE = 1;

    private final Controller controller;

    public UpdateFeaturesHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.UPDATE_FEATURES;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<UpdateFeaturesRequest> request) {
        UpdateFeaturesRequest body = request.body();
        short version = request.version();
        Map<String, FeatureUpdate> updates = new LinkedHashMap<>();
        for (UpdateFeaturesRequest.FeatureUpdateKey key : body.featureUpdates()) {
            boolean downgrade = version == 0 ? key.allowDowngrade() : key.upgradeType() != UPGRADE;
            if (key.maxVersionLevel() < 0 || updates.put(key.feature(), new FeatureUpdate(key.maxVersionLevel(),
                    downgrade)) != null || (version > 0 && (key.upgradeType() < 1 || key.upgradeType() > 3))) {
                return CompletableFuture.completedFuture(HandlerResponse.of(failed(Errors.INVALID_REQUEST,
                        "invalid update of feature " + key.feature())));
            }
        }
        long timeoutMs = Math.max(0, body.timeoutMs());
        return ControllerErrors.outcome(controller.updateFeatures(updates, body.validateOnly()), timeoutMs)
                .thenApply(outcome -> {
                    if (!outcome.succeeded()) {
                        return HandlerResponse.of(failed(Errors.forCode(outcome.errorCode()),
                                outcome.errorMessage()));
                    }
                    UpdateFeaturesResponse response = new UpdateFeaturesResponse();
                    outcome.value().forEach((name, result) -> {
                        response.results().add(new UpdateFeaturesResponse.UpdatableFeatureResult().setFeature(name)
                                .setErrorCode(result.error().code()).setErrorMessage(result.message()));
                        if (!result.isSuccess() && response.errorCode() == Errors.NONE.code() && version >= 2) {
                            response.setErrorCode(result.error().code()).setErrorMessage(result.message());
                        }
                    });
                    return HandlerResponse.of(response);
                });
    }

    @Override
    public Optional<UpdateFeaturesResponse> errorResponse(ApiRequest<UpdateFeaturesRequest> request, Errors error) {
        return Optional.of(failed(error, null));
    }

    private static UpdateFeaturesResponse failed(Errors error, String message) {
        return new UpdateFeaturesResponse().setErrorCode(error.code()).setErrorMessage(message);
    }
}
