package io.kraft.metadata.controller;

import io.kraft.metadata.image.ConfigResource;
import java.util.Map;
import java.util.Optional;

/**
 * A topic setting as the controller applies it: the topic's override, else the cluster-wide dynamic broker default,
 * with config changes not yet replayed laid over the view.
 */
final class EffectiveTopicConfig {
    private EffectiveTopicConfig() {
    }

    /**
     * The value of {@code key} for {@code topicName}, or empty when neither the topic nor the cluster default sets it.
     *
     * @param pending changes of an IncrementalAlterConfigs not yet replayed (an empty value deletes the key)
     */
    static Optional<String> value(SpeculativeMetadata metadata, String topicName, String key,
                                  Map<ConfigResource, Optional<String>> pending) {
        Optional<String> value = lookup(metadata, ConfigResource.topic(topicName), key, pending);
        return value.isPresent() ? value : lookup(metadata, ConfigResource.broker(""), key, pending);
    }

    private static Optional<String> lookup(SpeculativeMetadata metadata, ConfigResource resource, String key,
                                           Map<ConfigResource, Optional<String>> pending) {
        if (pending.containsKey(resource)) {
            return pending.get(resource);
        }
        return Optional.ofNullable(metadata.configs(resource).get(key));
    }
}
