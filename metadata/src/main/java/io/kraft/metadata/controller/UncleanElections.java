package io.kraft.metadata.controller;

import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.proto.metadata.PartitionChangeRecord;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a topic's partitions may elect a leader from outside the ISR ({@code unclean.leader.election.enable}), and
 * the record of each such election. As in Kafka, the topic's setting overrides the cluster-wide dynamic broker
 * default, which overrides the controller's static setting. An unclean election may lose records the ISR had
 * acknowledged, so each is logged (one line: partition, new leader, old ISR) and counted.
 */
final class UncleanElections {
    private static final Logger LOG = LoggerFactory.getLogger(UncleanElections.class);

    private final ControllerSettings settings;
    private final SpeculativeMetadata metadata;
    private final AtomicLong count = new AtomicLong();

    UncleanElections(ControllerSettings settings, SpeculativeMetadata metadata) {
        this.settings = settings;
        this.metadata = metadata;
    }

    /** The effective setting for {@code topicName} in the controller's current view. */
    boolean enabled(String topicName) {
        return enabled(topicName, Map.of());
    }

    /**
     * The effective setting for {@code topicName} with {@code pending} config changes applied over the current view
     * (changes of an IncrementalAlterConfigs not yet replayed; an empty value deletes the key).
     */
    boolean enabled(String topicName, Map<ConfigResource, Optional<String>> pending) {
        Optional<String> value = EffectiveTopicConfig.value(metadata, topicName,
                ControllerSettings.UNCLEAN_LEADER_ELECTION_ENABLE, pending);
        return value.map(Boolean::parseBoolean).orElse(settings.uncleanLeaderElectionEnable());
    }

    /** Logs and counts {@code change} if it elects a leader from outside the partition's ISR and ELR (KIP-966). */
    void recordIfUnclean(String topicName, int partitionId, PartitionRegistration before,
                         PartitionChangeRecord.Builder change) {
        if (!change.hasLeader() || change.getLeader() == PartitionRegistration.NO_LEADER
                || before.isr().contains(change.getLeader()) || before.elr().contains(change.getLeader())) {
            return;
        }
        count.incrementAndGet();
        LOG.warn("Unclean leader election for {}-{}: broker {} leads from outside the ISR {} (leader epoch {});"
                + " records only the old ISR had are lost", topicName, partitionId, change.getLeader(), before.isr(),
                before.leaderEpoch() + 1);
    }

    /** Unclean leader elections this controller generated since it started (for metrics). */
    long count() {
        return count.get();
    }
}
