package io.kraft.broker.api.admin;

import io.kraft.broker.config.EffectiveConfigs;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.LegacyRequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.AlterConfigsMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.storage.errors.Errors;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Answers AlterConfigs (v0-2): each resource's dynamic configs are replaced by the request's set (keys left
 * out are deleted), checked here and persisted through the controller; validate_only only checks.
 */
public final class AlterConfigsHandler implements LegacyRequestHandler {
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
    public Struct handle(RequestContext context, ParsedRequest request) {
        return updates.apply(request.body(), images.get(), AlterConfigsHandler::replacement, AlterConfigsMessages.RESPONSE.newStruct(), CONTROLLER_TIMEOUT_MS);
    }

    /** The changes that make the resource's set exactly the requested one (a null value deletes the key). */
    private static Map<String, Optional<String>> replacement(MetadataImage image, ConfigResource resource,
                                                             Struct request) {
        Map<String, Optional<String>> changes = new LinkedHashMap<>();
        Set<String> named = new HashSet<>();
        for (Struct config : request.getStructs("configs")) {
            String key = config.getString("name");
            if (!named.add(key)) {
                throw new ControllerException(Errors.INVALID_REQUEST, "Config " + key + " appears more than once for "
                        + ConfigResourceKeys.describe(resource));
            }
            changes.put(key, Optional.ofNullable(config.getString("value")));
        }
        for (String key : ConfigUpdates.current(image, resource).keySet()) {
            changes.putIfAbsent(key, Optional.empty());
        }
        return changes;
    }
}
