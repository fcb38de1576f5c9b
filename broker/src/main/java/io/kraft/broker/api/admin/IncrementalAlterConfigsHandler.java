package io.kraft.broker.api.admin;

import io.kraft.broker.config.EffectiveConfigs;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.LegacyRequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.IncrementalAlterConfigsMessages;
import io.kraft.broker.protocol.schema.Struct;
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
import java.util.function.Supplier;

/**
 * Answers IncrementalAlterConfigs (v0-1, KIP-339): SET, DELETE, and for list-typed keys APPEND and SUBTRACT,
 * applied to the resource's current value, checked here and persisted through the controller; validate_only
 * only checks.
 */
public final class IncrementalAlterConfigsHandler implements LegacyRequestHandler {
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
    public Struct handle(RequestContext context, ParsedRequest request) {
        return updates.apply(request.body(), images.get(), this::changes, IncrementalAlterConfigsMessages.RESPONSE.newStruct(), AlterConfigsHandler.CONTROLLER_TIMEOUT_MS);
    }

    /** The operations of one resource as key → new value (empty to delete). */
    private Map<String, Optional<String>> changes(MetadataImage image, ConfigResource resource, Struct request) {
        Map<String, Optional<String>> changes = new LinkedHashMap<>();
        for (Struct config : request.getStructs("configs")) {
            String key = config.getString("name");
            if (changes.containsKey(key)) {
                throw new ControllerException(Errors.INVALID_REQUEST, "Config " + key + " appears more than once for "
                        + ConfigResourceKeys.describe(resource));
            }
            byte operation = config.getByte("config_operation");
            String value = config.getString("value");
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
