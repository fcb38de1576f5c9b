package io.kraft.broker.api.admin;

import io.kraft.broker.api.admin.ControllerErrors.Outcome;
import io.kraft.broker.config.EffectiveConfigs;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.AlterConfigsRequest;
import io.kraft.broker.protocol.message.AlterConfigsRequest.AlterConfigsResource;
import io.kraft.broker.protocol.message.AlterConfigsRequest.AlterableConfig;
import io.kraft.broker.protocol.message.AlterConfigsResponse;
import io.kraft.broker.protocol.message.AlterConfigsResponse.AlterConfigsResourceResponse;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Answers AlterConfigs (v0-2): each resource's dynamic configs are replaced by the request's set (keys left
 * out are deleted), checked here and persisted through the controller; validate_only only checks. The answer
 * comes when the controller has answered every resource; no handler thread waits meanwhile.
 */
public final class AlterConfigsHandler implements AsyncRequestHandler<AlterConfigsRequest, AlterConfigsResponse> {
    /** How long to wait for the controller to commit, as AlterConfigs carries no timeout of its own. */
    static final long CONTROLLER_TIMEOUT_MS = 30_000;

    private final Supplier<MetadataImage> images;
    private final ConfigUpdates updates;

    public AlterConfigsHandler(Controller controller, Supplier<MetadataImage> images, EffectiveConfigs configs) {
        this.images = Objects.requireNonNull(images, "images");
        this.updates = new ConfigUpdates(controller, configs);
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.ALTER_CONFIGS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<AlterConfigsRequest> request) {
        List<ConfigUpdates.Resource> resources = new ArrayList<>(request.body().resources().size());
        for (AlterConfigsResource resource : request.body().resources()) {
            resources.add(new ConfigUpdates.Resource(resource.resourceType(), resource.resourceName(),
                    (image, target) -> replacement(image, target, resource)));
        }
        return updates.apply(context, resources, request.body().validateOnly(), images.get(), CONTROLLER_TIMEOUT_MS)
                .thenApply(outcomes -> HandlerResponse.of(response(resources, outcomes)));
    }

    private static AlterConfigsResponse response(List<ConfigUpdates.Resource> resources, List<Outcome<Void>> outcomes) {
        AlterConfigsResponse response = new AlterConfigsResponse();
        for (int i = 0; i < outcomes.size(); i++) {
            response.responses().add(new AlterConfigsResourceResponse()
                    .setErrorCode(outcomes.get(i).errorCode())
                    .setErrorMessage(outcomes.get(i).errorMessage())
                    .setResourceType(resources.get(i).type())
                    .setResourceName(resources.get(i).name()));
        }
        return response;
    }

    /** The changes that make the resource's set exactly the requested one (a null value deletes the key). */
    private static Map<String, Optional<String>> replacement(MetadataImage image, ConfigResource resource,
                                                             AlterConfigsResource request) {
        Map<String, Optional<String>> changes = new LinkedHashMap<>();
        Set<String> named = new HashSet<>();
        for (AlterableConfig config : request.configs()) {
            String key = config.name();
            if (!named.add(key)) {
                throw new ControllerException(Errors.INVALID_REQUEST, "Config " + key + " appears more than once for "
                        + ConfigResourceKeys.describe(resource));
            }
            changes.put(key, Optional.ofNullable(config.value()));
        }
        for (String key : ConfigUpdates.current(image, resource).keySet()) {
            changes.putIfAbsent(key, Optional.empty());
        }
        return changes;
    }
}
