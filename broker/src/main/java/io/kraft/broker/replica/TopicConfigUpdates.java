package io.kraft.broker.replica;

import io.kraft.config.TopicConfigResolver;
import io.kraft.config.TopicLogSettings;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.TopicPartition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A topic's effective log settings, and their changes applied to the hosted partitions of the topics they touch. */
final class TopicConfigUpdates {
    private static final Logger LOG = LoggerFactory.getLogger(TopicConfigUpdates.class);

    private final int brokerId;
    private final Function<MetadataImage, TopicConfigResolver> resolvers;
    private final Map<TopicPartition, Partition> partitions;
    private final Supplier<MetadataImage> image;
    /** Read and written by any thread asking; a lost update only costs a second resolution. */
    private volatile Resolved lastResolved;

    /**
     * @param resolvers  the resolver of topic settings for an image, e.g. one honouring dynamic broker defaults
     * @param partitions the partitions hosted here (read, never changed)
     * @param image      the replica manager's current image
     */
    TopicConfigUpdates(int brokerId, Function<MetadataImage, TopicConfigResolver> resolvers,
                       Map<TopicPartition, Partition> partitions, Supplier<MetadataImage> image) {
        this.brokerId = brokerId;
        this.resolvers = resolvers;
        this.partitions = partitions;
        this.image = image;
    }

    /** Applies the delta's config changes to the logs of the topics they touch (every topic for broker defaults). */
    void apply(MetadataDelta delta) {
        if (!delta.hasConfigChanges()) {
            return;
        }
        Set<String> topics = new HashSet<>();
        boolean brokerDefaultsChanged = false;
        for (ConfigResource resource : delta.configsDelta().changes().keySet()) {
            if (resource.type() == ConfigResource.Type.TOPIC) {
                topics.add(resource.name());
            } else if (resource.name().isEmpty() || resource.name().equals(String.valueOf(brokerId))) {
                brokerDefaultsChanged = true;
            }
        }
        if (brokerDefaultsChanged) {
            // Dynamic broker defaults changed: every topic without its own override may be affected.
            partitions.keySet().forEach(tp -> topics.add(tp.topic()));
        }
        for (String topic : topics) {
            try {
                TopicLogSettings settings = topicSettings(topic);
                LogConfig logConfig = LogConfig.from(settings);
                for (Partition partition : hostedPartitions(topic)) {
                    partition.log().updateConfig(logConfig);
                    partition.setMinIsr(MinIsr.of(settings.minInsyncReplicas(), image.get()));
                }
            } catch (RuntimeException e) {
                LOG.error("Broker {} could not apply the new configs of topic {}", brokerId, topic, e);
            }
        }
    }

    /** The topic's partitions hosted here, found through the image's partitions of the topic (not a scan of all). */
    private List<Partition> hostedPartitions(String topic) {
        TopicImage known = image.get().topics().topic(topic);
        if (known == null) {
            return List.of();
        }
        List<Partition> hosted = new ArrayList<>();
        for (int partitionId : known.partitions().keySet()) {
            Partition partition = partitions.get(new TopicPartition(topic, partitionId));
            if (partition != null) {
                hosted.add(partition);
            }
        }
        return hosted;
    }

    /** A topic's effective settings: its overrides in the current image over the broker defaults. */
    TopicLogSettings topicSettings(String topic) {
        return resolved(topic).settings();
    }

    /** The log settings of the topic's partitions now. */
    LogConfig logConfig(String topic) {
        return resolved(topic).logConfig();
    }

    /**
     * The settings follow from the image alone, so the last topic's are kept with the image they came from: a new
     * topic's partitions are created one after the other in one image, and each creation asks twice (its log's
     * config, then the partition's settings); resolving parses and checks every topic key each time.
     */
    private Resolved resolved(String topic) {
        MetadataImage current = image.get();
        Resolved last = lastResolved;
        if (last != null && last.image() == current && last.topic().equals(topic)) {
            return last;
        }
        TopicLogSettings settings = resolve(current, topic);
        Resolved next = new Resolved(current, topic, settings, LogConfig.from(settings));
        lastResolved = next;
        return next;
    }

    private TopicLogSettings resolve(MetadataImage current, String topic) {
        Map<String, String> overrides = current.configs().configs(ConfigResource.topic(topic));
        TopicConfigResolver resolver = resolvers.apply(current);
        try {
            return resolver.resolve(overrides);
        } catch (RuntimeException e) {
            LOG.warn("Topic {} has unusable config overrides {}; using the broker defaults: {}", topic, overrides,
                    e.getMessage());
            return resolver.resolve(Map.of());
        }
    }

    /** A topic's settings as resolved in one image. */
    private record Resolved(MetadataImage image, String topic, TopicLogSettings settings, LogConfig logConfig) {
    }
}
