package io.kraft.broker.config;

import io.kraft.broker.config.DescribedConfig.Synonym;
import io.kraft.broker.network.SslSettings;
import io.kraft.config.ConfigKey;
import io.kraft.config.ConfigSource;
import io.kraft.config.ConfigType;
import io.kraft.config.ConfigValue;
import io.kraft.config.ParsedConfig;
import io.kraft.config.TopicConfigResolver;
import io.kraft.config.TopicConfigs;
import io.kraft.config.TopicLogSettings;
import io.kraft.metadata.image.MetadataImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Describes topic and broker configuration the way DescribeConfigs reports it: every setting with its
 * effective value, where that value came from, and (as synonyms) every layer that sets it, from the topic
 * override down to the built-in default.
 */
public final class ConfigDescriber {
    private final EffectiveConfigs configs;

    public ConfigDescriber(EffectiveConfigs configs) {
        this.configs = Objects.requireNonNull(configs, "configs");
    }

    /**
     * Every topic setting of a topic with the given overrides.
     *
     * @throws io.kraft.config.ConfigException if the overrides are invalid
     */
    public List<DescribedConfig> topic(MetadataImage image, Map<String, String> overrides) {
        TopicConfigResolver resolver = configs.topics(image);
        TopicLogSettings settings = resolver.resolve(overrides);
        Map<String, String> clusterDefaults = EffectiveConfigs.clusterDefaults(image);
        Map<String, String> own = configs.ownDynamic(image);
        List<DescribedConfig> described = new ArrayList<>();
        for (ConfigValue entry : settings.entries()) {
            ConfigKey key = resolver.definition().key(entry.name());
            boolean sensitive = key.type() == ConfigType.PASSWORD;
            List<Synonym> synonyms = new ArrayList<>();
            String override = overrides.get(entry.name());
            if (override != null) {
                synonyms.add(new Synonym(entry.name(), sensitive ? null : override, ConfigSource.DYNAMIC_TOPIC_CONFIG));
            }
            for (String brokerKey : TopicConfigs.brokerSynonyms(entry.name())) {
                addBrokerLayers(synonyms, brokerKey, clusterDefaults, own);
            }
            String value = sensitive || entry.value() == null ? null : entry.shownValue();
            described.add(new DescribedConfig(entry.name(), value, entry.source(), false, sensitive, synonyms,
                    key.type(), key.doc()));
        }
        return described;
    }

    /** Every setting of this broker: the defined keys, then the other entries of its properties file. */
    public List<DescribedConfig> broker(MetadataImage image) {
        ParsedConfig parsed = configs.broker(image);
        Map<String, String> clusterDefaults = EffectiveConfigs.clusterDefaults(image);
        Map<String, String> own = configs.ownDynamic(image);
        List<DescribedConfig> described = new ArrayList<>();
        for (ConfigKey key : BrokerConfigs.definition().keys()) {
            boolean sensitive = key.type() == ConfigType.PASSWORD;
            Object value = parsed.get(key.name());
            List<Synonym> synonyms = new ArrayList<>();
            for (String synonym : BrokerConfigs.synonymChain(key.name())) {
                addBrokerLayers(synonyms, synonym, clusterDefaults, own);
            }
            described.add(new DescribedConfig(key.name(), sensitive || value == null ? null : key.display(value),
                    parsed.source(key.name()), !BrokerConfigs.isDynamic(key.name()), sensitive, synonyms,
                    key.type(), key.doc()));
        }
        configs.staticOtherValues().forEach((name, text) -> {
            boolean sensitive = looksSensitive(name);
            String shown = sensitive ? null : text;
            described.add(new DescribedConfig(name, shown, ConfigSource.STATIC_BROKER_CONFIG, true, sensitive,
                    List.of(new Synonym(name, shown, ConfigSource.STATIC_BROKER_CONFIG)), null, null));
        });
        return described;
    }

    /** The cluster-wide dynamic defaults (broker resource ""): only the keys set there, as Kafka reports them. */
    public List<DescribedConfig> clusterDefault(MetadataImage image) {
        List<DescribedConfig> described = new ArrayList<>();
        new TreeMap<>(EffectiveConfigs.clusterDefaults(image)).forEach((name, text) -> {
            ConfigKey key = BrokerConfigs.definition().contains(name) ? BrokerConfigs.definition().key(name) : null;
            boolean sensitive = key == null ? looksSensitive(name) : key.type() == ConfigType.PASSWORD;
            String shown = sensitive ? null : text;
            described.add(new DescribedConfig(name, shown, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, false, sensitive,
                    List.of(new Synonym(name, shown, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)),
                    key == null ? null : key.type(), key == null ? null : key.doc()));
        });
        return described;
    }

    /** The layers that set one broker key, most specific first, ending with its built-in default. */
    private void addBrokerLayers(List<Synonym> synonyms, String brokerKey, Map<String, String> clusterDefaults,
                                 Map<String, String> own) {
        ConfigKey key = BrokerConfigs.definition().key(brokerKey);
        boolean sensitive = key.type() == ConfigType.PASSWORD;
        String ownValue = own.get(brokerKey);
        if (ownValue != null) {
            synonyms.add(new Synonym(brokerKey, sensitive ? null : ownValue, ConfigSource.DYNAMIC_BROKER_CONFIG));
        }
        String clusterValue = clusterDefaults.get(brokerKey);
        if (clusterValue != null) {
            synonyms.add(new Synonym(brokerKey, sensitive ? null : clusterValue,
                    ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG));
        }
        String staticValue = configs.staticValues().get(brokerKey);
        if (staticValue != null) {
            synonyms.add(new Synonym(brokerKey, sensitive ? null : staticValue, ConfigSource.STATIC_BROKER_CONFIG));
        }
        if (key.hasDefault()) {
            synonyms.add(new Synonym(brokerKey, sensitive ? null : key.display(key.defaultValue()),
                    ConfigSource.DEFAULT_CONFIG));
        }
    }

    /** Secrets in properties this broker has no definition for: hide them rather than guess. */
    private static boolean looksSensitive(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        // The ssl.* keys that hold key material (ssl.keystore.key, certificates given inline), also per listener.
        return lower.contains("password") || lower.contains("secret") || lower.contains("jaas")
                || SslSettings.isSensitive(name);
    }
}
