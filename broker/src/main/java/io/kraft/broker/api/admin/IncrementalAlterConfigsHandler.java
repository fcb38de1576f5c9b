package io.kraft.broker.api.admin;

import io.kraft.broker.api.admin.ControllerErrors.Outcome;
import io.kraft.broker.config.EffectiveConfigs;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.IncrementalAlterConfigsRequest;
import io.kraft.broker.protocol.message.IncrementalAlterConfigsRequest.AlterConfigsResource;
import io.kraft.broker.protocol.message.IncrementalAlterConfigsRequest.AlterableConfig;
import io.kraft.broker.protocol.message.IncrementalAlterConfigsResponse;
import io.kraft.broker.protocol.message.IncrementalAlterConfigsResponse.AlterConfigsResourceResponse;
import io.kraft.config.ConfigException;
import io.kraft.config.ConfigType;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Answers IncrementalAlterConfigs (v0-1, KIP-339): SET, DELETE, and for list-typed keys APPEND and SUBTRACT,
 * applied to the resource's current value, checked here and persisted through the controller; validate_only
 * only checks. The answer comes when the controller has answered every resource; no handler thread waits
 * meanwhile.
 */
public final class IncrementalAlterConfigsHandler
        implements AsyncRequestHandler<IncrementalAlterConfigsRequest, IncrementalAlterConfigsResponse> {
    static final byte SET = 0;
    static final byte DELETE = 1;
    static final byte APPEND = 2;
    static final byte SUBTRACT = 3;

    private final Supplier<MetadataImage> images;
    private final ConfigUpdates updates;

    public IncrementalAlterConfigsHandler(Controller controller, Supplier<MetadataImage> images,
                                          EffectiveConfigs configs) {
        this.images = Objects.requireNonNull(images, "images");
        this.updates = new ConfigUpdates(controller, configs);
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.INCREMENTAL_ALTER_CONFIGS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<IncrementalAlterConfigsRequest> request) {
        List<ConfigUpdates.Resource> resources = new ArrayList<>(request.body().resources().size());
        for (AlterConfigsResource resource : request.body().resources()) {
            resources.add(new ConfigUpdates.Resource(resource.resourceType(), resource.resourceName(),
                    (image, target) -> changes(image, target, resource)));
        }
        return updates.apply(context, resources, request.body().validateOnly(), images.get(),
                        AlterConfigsHandler.CONTROLLER_TIMEOUT_MS)
                .thenApply(outcomes -> HandlerResponse.of(response(resources, outcomes)));
    }

    private static IncrementalAlterConfigsResponse response(List<ConfigUpdates.Resource> resources,
                                                            List<Outcome<Void>> outcomes) {
        IncrementalAlterConfigsResponse response = new IncrementalAlterConfigsResponse();
        for (int i = 0; i < outcomes.size(); i++) {
            response.responses().add(new AlterConfigsResourceResponse()
                    .setErrorCode(outcomes.get(i).errorCode())
                    .setErrorMessage(outcomes.get(i).errorMessage())
                    .setResourceType(resources.get(i).type())
                    .setResourceName(resources.get(i).name()));
        }
        return response;
    }

    /** The operations of one resource as key → new value (empty to delete). */
    private Map<String, Optional<String>> changes(MetadataImage image, ConfigResource resource,
                                                  AlterConfigsResource request) {
        Map<String, Optional<String>> changes = new LinkedHashMap<>();
        for (AlterableConfig config : request.configs()) {
            String key = config.name();
            if (changes.containsKey(key)) {
                throw new ControllerException(Errors.INVALID_REQUEST, "Config " + key + " appears more than once for "
                        + ConfigResourceKeys.describe(resource));
            }
            byte operation = config.configOperation();
            String value = config.value();
            changes.put(key, switch (operation) {
                case SET -> {
                    if (value == null) {
                        throw new ControllerException(Errors.INVALID_REQUEST, "SET of config " + key
                                + " needs a value; use DELETE to remove it");
                    }
                    yield Optional.of(value);
                }
                case DELETE -> Optional.empty();
                case APPEND, SUBTRACT -> Optional.of(applyToList(image, resource, key, operation, value));
                default -> throw new ControllerException(Errors.INVALID_REQUEST, "Config operation " + operation
                        + " for " + key + " is unknown; expected 0 (SET), 1 (DELETE), 2 (APPEND) or 3 (SUBTRACT)");
            });
        }
        return changes;
    }

    private String applyToList(MetadataImage image, ConfigResource resource, String key, byte operation, String value) {
        String operationName = operation == APPEND ? "APPEND" : "SUBTRACT";
        ConfigType type = updates.type(image, resource, key);
        if (type == null) {
            throw new ControllerException(Errors.INVALID_CONFIG, "Unknown "
                    + (resource.type() == ConfigResource.Type.TOPIC ? "topic" : "broker") + " configuration " + key);
        }
        if (type != ConfigType.LIST) {
            throw new ControllerException(Errors.INVALID_CONFIG, operationName + " applies only to list configs, and "
                    + key + " is " + type.noun());
        }
        List<String> items;
        try {
            items = new ArrayList<>(updates.currentList(image, resource, key));
        } catch (ConfigException e) {
            throw new ControllerException(Errors.INVALID_CONFIG, e.getMessage());
        }
        for (String item : value == null ? new String[0] : value.split(",")) {
            String trimmed = item.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            if (operation == APPEND && !items.contains(trimmed)) {
                items.add(trimmed);
            } else if (operation == SUBTRACT) {
                items.remove(trimmed);
            }
        }
        return String.join(",", items);
    }
}
