package io.kraft.metadata.controller;

import io.kraft.config.TopicConfigs;
import io.kraft.metadata.image.ConfigResource;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link ElrRule} each topic's partitions follow in the controller's current view: on when the finalized
 * {@code eligible.leader.replicas.version} is at least 1, with the topic's min.insync.replicas (its override, else the
 * cluster-wide dynamic default, else Kafka's default of 1).
 */
final class ElrRules {
    private static final int DEFAULT_MIN_ISR = 1;

    private final SpeculativeMetadata metadata;

    ElrRules(SpeculativeMetadata metadata) {
        this.metadata = metadata;
    }

    /** Whether eligible leader replicas are on. */
    boolean enabled() {
        return metadata.featureLevel(ElrRule.FEATURE) >= 1;
    }

    ElrRule forTopic(String topicName) {
        return forTopic(topicName, Map.of());
    }

    /** The rule with {@code pending} config changes (not yet replayed; an empty value deletes the key) applied. */
    ElrRule forTopic(String topicName, Map<ConfigResource, Optional<String>> pending) {
        if (!enabled() || topicName == null) {
            return ElrRule.OFF;
        }
        Optional<String> value = EffectiveTopicConfig.value(metadata, topicName, TopicConfigs.MIN_INSYNC_REPLICAS,
                pending);
        int minIsr = DEFAULT_MIN_ISR;
        try {
            minIsr = value.map(Integer::parseInt).orElse(DEFAULT_MIN_ISR);
        } catch (NumberFormatException e) {
            // Validated when set; an unreadable value falls back to the default rather than failing elections.
        }
        return new ElrRule(true, minIsr, b -> false);
    }
}
