package io.kraft.broker.config;

import io.kraft.broker.quota.ReplicationQuotaConfig;
import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigKey;
import io.kraft.config.ConfigType;
import io.kraft.config.Importance;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigs;
import io.kraft.metadata.controller.ControllerSettings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The broker-level settings DescribeConfigs reports and AlterConfigs may change: the log settings, the
 * controller's topic-creation defaults, auto.create.topics.enable and the replication throttles. Only the broker
 * keys that supply a topic setting's default and the throttle rates are dynamic (per broker or cluster-wide), as
 * in Kafka; the rest are read-only.
 */
public final class BrokerConfigs {
    public static final String AUTO_CREATE_TOPICS_ENABLE = "auto.create.topics.enable";

    private static final ConfigDef DEFINITION = define();
    private static final Set<String> DYNAMIC_KEYS = dynamicKeys();

    private BrokerConfigs() {
    }

    /** Every broker key this broker knows, with type, default and documentation. */
    public static ConfigDef definition() {
        return DEFINITION;
    }

    /** Whether AlterConfigs may change the key at run time (for one broker or as the cluster default). */
    public static boolean isDynamic(String key) {
        return DYNAMIC_KEYS.contains(key);
    }

    /**
     * The broker keys that stand for the same setting, in precedence order starting at {@code key}: for
     * log.retention.ms that is log.retention.ms, log.retention.minutes, log.retention.hours.
     */
    public static List<String> synonymChain(String key) {
        for (String topicKey : TopicConfigs.names()) {
            List<String> chain = TopicConfigs.brokerSynonyms(topicKey);
            int at = chain.indexOf(key);
            if (at >= 0) {
                return chain.subList(at, chain.size());
            }
        }
        return List.of(key);
    }

    private static ConfigDef define() {
        ConfigDef definition = LogConfigs.definition();
        for (ConfigKey key : ControllerSettings.definition().keys()) {
            if (!definition.contains(key.name())) {
                definition.define(key);
            }
        }
        for (ConfigKey key : ReplicationQuotaConfig.definition().keys()) {
            definition.define(key);
        }
        return definition.define(AUTO_CREATE_TOPICS_ENABLE, ConfigType.BOOLEAN, true, Importance.HIGH,
                "Whether a Metadata request for an unknown topic creates it with num.partitions and "
                        + "default.replication.factor.");
    }

    private static Set<String> dynamicKeys() {
        List<String> keys = new ArrayList<>();
        for (String topicKey : TopicConfigs.names()) {
            keys.addAll(TopicConfigs.brokerSynonyms(topicKey));
        }
        keys.addAll(ReplicationQuotaConfig.DYNAMIC_KEYS);
        return Collections.unmodifiableSet(new LinkedHashSet<>(keys));
    }
}
