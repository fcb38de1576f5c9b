package io.kraft.broker.api.admin;

import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.storage.errors.Errors;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The resources of a config request: how they are told apart, found twice, and named in messages. */
final class ConfigResourceKeys {
    private ConfigResourceKeys() {
    }

    static String key(byte type, String name) {
        return type + "/" + name;
    }

    /** The keys of the request's resources that appear more than once. */
    static Set<String> duplicates(List<ConfigUpdates.Resource> resources) {
        Set<String> seen = new HashSet<>();
        Set<String> duplicates = new HashSet<>();
        for (ConfigUpdates.Resource resource : resources) {
            String key = key(resource.type(), resource.name());
            if (!seen.add(key)) {
                duplicates.add(key);
            }
        }
        return duplicates;
    }

    static ControllerException duplicateError(byte type, String name) {
        return new ControllerException(Errors.INVALID_REQUEST, "Config resource of type " + type + " named '" + name
                + "' appears more than once in the request");
    }

    /** "topic orders", "broker 1", "the cluster-wide broker default". */
    static String describe(ConfigResource resource) {
        return switch (resource.type()) {
            case TOPIC -> "topic " + resource.name();
            case BROKER -> resource.name().isEmpty() ? "the cluster-wide broker default" : "broker " + resource.name();
        };
    }
}
