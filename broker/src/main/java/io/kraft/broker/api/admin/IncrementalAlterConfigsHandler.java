package io.kraft.broker.api.admin;

import io.kraft.broker.api.admin.ControllerErrors.Outcome;
import io.kraft.broker.config.BrokerLoggers;
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
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
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
 * only checks. This node's log levels (BROKER_LOGGER) are changed here, at once and not persisted. The answer comes when the controller has answered every resource; no handler thread waits
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

    private final BrokerLoggerConfigs loggers;

    public IncrementalAlterConfigsHandler(Controller controller, Supplier<MetadataImage> images,
                                          EffectiveConfigs configs) {
        this(controller, images, configs, BrokerLoggers.load());
    }

    public IncrementalAlterConfigsHandler(Controller controller, Supplier<MetadataImage> images,
                                          EffectiveConfigs configs, BrokerLoggers loggers) {
        this.images = Objects.requireNonNull(images, "images");
        this.updates = new ConfigUpdates(controller, configs);
        this.loggers = new BrokerLoggerConfigs(configs.brokerId(), loggers);
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.INCREMENTAL_ALTER_CONFIGS;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<IncrementalAlterConfigsRequest> request) {
        boolean validateOnly = request.body().validateOnly();
        List<ConfigUpdates.Resource> resources = new ArrayList<>(request.body().resources().size());
        // Log levels are this node's own: answered here, never sent to the controller.
        Map<Integer, ApiError> loggerAnswers = new HashMap<>();
        List<AlterConfigsResource> requested = request.body().resources();
        for (int i = 0; i < requested.size(); i++) {
            AlterConfigsResource resource = requested.get(i);
            if (resource.resourceType() == BrokerLoggerConfigs.RESOURCE_TYPE) {
                loggerAnswers.put(i, context.authorizeCluster(AclOperation.ALTER_CONFIGS)
                        ? loggers.alter(resource.resourceName(), resource.configs(), validateOnly)
                        : ApiError.of(Errors.CLUSTER_AUTHORIZATION_FAILED, null));
                continue;
            }
            resources.add(new ConfigUpdates.Resource(resource.resourceType(), resource.resourceName(),
                    (image, target) -> changes(image, target, resource)));
        }
        return updates.apply(context, resources, validateOnly, images.get(), AlterConfigsHandler.CONTROLLER_TIMEOUT_MS)
                .thenApply(outcomes -> HandlerResponse.of(response(requested, loggerAnswers, outcomes)));
    }

    private static IncrementalAlterConfigsResponse response(List<AlterConfigsResource> requested,
                                                            Map<Integer, ApiError> loggerAnswers,
                                                            List<Outcome<Void>> outcomes) {
        IncrementalAlterConfigsResponse response = new IncrementalAlterConfigsResponse();
        int next = 0;
        for (int i = 0; i < requested.size(); i++) {
            AlterConfigsResourceResponse answer = new AlterConfigsResourceResponse()
                    .setResourceType(requested.get(i).resourceType())
                    .setResourceName(requested.get(i).resourceName());
            ApiError local = loggerAnswers.get(i);
            if (local != null) {
                answer.setErrorCode(local.error().code()).setErrorMessage(local.message());
            } else {
                Outcome<Void> outcome = outcomes.get(next++);
                answer.setErrorCode(outcome.errorCode()).setErrorMessage(outcome.errorMessage());
            }
            response.responses().add(answer);
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
