package io.kraft.broker.config;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigException;
import io.kraft.config.ConfigLayer;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.controller.ControllerSettings;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataImage;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker's effective configuration: its properties file, overlaid by the cluster-wide dynamic defaults
 * (broker resource "") and then by its own dynamic configs (broker resource "&lt;id&gt;") from the metadata image,
 * and the topic defaults that follow from them. Thread-safe; the last result is cached per dynamic state.
 */
public final class EffectiveConfigs {
    private static final Logger LOG = LoggerFactory.getLogger(EffectiveConfigs.class);

    private final int brokerId;
    /** Properties-file values of keys in {@link BrokerConfigs#definition()}. */
    private final Map<String, String> staticKnown;
    /** The other properties (node.id, listeners, ...): shown read-only, never parsed here. */
    private final Map<String, String> staticOther;
    private final ParsedConfig staticOnly;
    private volatile Cached cached;

    /** The parse of one dynamic state. */
    private record Cached(Map<String, String> clusterDefaults, Map<String, String> own, ParsedConfig broker,
                          TopicConfigResolver topics) {
    }

    /**
     * @param staticProperties the node's properties file (all keys)
     * @throws ConfigException if a broker setting in the file is invalid
     */
    public EffectiveConfigs(int brokerId, Map<String, String> staticProperties) {
        this.brokerId = brokerId;
        Map<String, String> known = new TreeMap<>();
        Map<String, String> other = new TreeMap<>();
        staticProperties.forEach((key, value) ->
                (BrokerConfigs.definition().contains(key) ? known : other).put(key, value));
        this.staticKnown = Map.copyOf(known);
        this.staticOther = Collections.unmodifiableMap(other);
        this.staticOnly = BrokerConfigs.definition().parse(staticKnown, ConfigSource.STATIC_BROKER_CONFIG);
        BrokerLogSettings.from(staticOnly); // fails now, naming the key, if the log settings are inconsistent
    }

    public int brokerId() {
        return brokerId;
    }

    /** auto.create.topics.enable from the properties file (it is not dynamic). */
    public boolean autoCreateTopicsEnable() {
        return staticOnly.getBoolean(BrokerConfigs.AUTO_CREATE_TOPICS_ENABLE);
    }

    /** num.partitions from the properties file: the partition count of topics this broker auto-creates. */
    public int defaultNumPartitions() {
        return staticOnly.getInt(ControllerSettings.NUM_PARTITIONS);
    }

    /** default.replication.factor from the properties file, for topics this broker auto-creates. */
    public int defaultReplicationFactor() {
        return staticOnly.getInt(ControllerSettings.DEFAULT_REPLICATION_FACTOR);
    }

    /** The properties-file values of known broker keys. */
    public Map<String, String> staticValues() {
        return staticKnown;
    }

    /** The properties-file entries no broker definition covers, by key. */
    public Map<String, String> staticOtherValues() {
        return staticOther;
    }

    /** The cluster-wide dynamic broker configs (resource ""). */
    public static Map<String, String> clusterDefaults(MetadataImage image) {
        return image.configs().configs(ConfigResource.broker(""));
    }

    /** This broker's own dynamic configs. */
    public Map<String, String> ownDynamic(MetadataImage image) {
        return image.configs().configs(ConfigResource.broker(Integer.toString(brokerId)));
    }

    /** Every broker key with its effective value and source. */
    public ParsedConfig broker(MetadataImage image) {
        return current(image).broker();
    }

    /** Resolves topic overrides against this broker's effective defaults. */
    public TopicConfigResolver topics(MetadataImage image) {
        return current(image).topics();
    }

    /**
     * Parses the properties file under the given dynamic layers.
     *
     * @throws ConfigException if a value is invalid or the effective log settings are inconsistent
     */
    public ParsedConfig parseWith(Map<String, String> clusterDefaults, Map<String, String> own) {
        ParsedConfig parsed = BrokerConfigs.definition().parse(List.of(
                new ConfigLayer(ConfigSource.STATIC_BROKER_CONFIG, staticKnown),
                new ConfigLayer(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, knownOnly(clusterDefaults)),
                new ConfigLayer(ConfigSource.DYNAMIC_BROKER_CONFIG, knownOnly(own))));
        BrokerLogSettings.from(parsed);
        return parsed;
    }

    private Cached current(MetadataImage image) {
        Map<String, String> clusterDefaults = clusterDefaults(image);
        Map<String, String> own = ownDynamic(image);
        Cached last = cached;
        if (last != null && last.clusterDefaults().equals(clusterDefaults) && last.own().equals(own)) {
            return last;
        }
        ParsedConfig broker;
        try {
            broker = parseWith(clusterDefaults, own);
        } catch (ConfigException e) {
            // Values are validated before they are committed; this guards against a log written by another tool.
            LOG.warn("Broker {} ignores its dynamic configs, which are invalid: {}", brokerId, e.getMessage());
            broker = staticOnly;
        }
        Cached next = new Cached(clusterDefaults, own, broker,
                new TopicConfigResolver(BrokerLogSettings.from(broker)));
        cached = next;
        return next;
    }

    private static Map<String, String> knownOnly(Map<String, String> values) {
        Map<String, String> known = new LinkedHashMap<>();
        values.forEach((key, value) -> {
            if (BrokerConfigs.definition().contains(key)) {
                known.put(key, value);
            }
        });
        return known;
    }

    @Override
    public String toString() {
        return "EffectiveConfigs(broker " + brokerId + ", static keys " + staticKnown.keySet() + ")";
    }
}
