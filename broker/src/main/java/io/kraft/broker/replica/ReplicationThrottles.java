package io.kraft.broker.replica;

import io.kraft.broker.quota.QuotaWindows;
import io.kraft.broker.quota.ReplicationQuota;
import io.kraft.broker.quota.ReplicationQuotaConfig;
import io.kraft.config.TopicConfigs;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's replication throttles (KIP-73), kept in step with the metadata: the leader's and the follower's
 * byte rates from the dynamic broker configs (this broker's own, else the cluster-wide default, else unlimited),
 * and from each topic's {@code leader.replication.throttled.replicas} / {@code follower.replication.throttled.replicas}
 * the partitions whose entry names this broker (or {@code *}).
 */
public final class ReplicationThrottles {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicationThrottles.class);

    private final int brokerId;
    private final ReplicationQuota leader;
    private final ReplicationQuota follower;
    private final ReplicationQuota alterLogDirs;

    public ReplicationThrottles(int brokerId, QuotaWindows windows, LongSupplier clock) {
        this.brokerId = brokerId;
        this.leader = new ReplicationQuota(windows, clock);
        this.follower = new ReplicationQuota(windows, clock);
        this.alterLogDirs = new ReplicationQuota(windows, clock);
    }

    /** What a leader sends to throttled followers outside the ISR. */
    public ReplicationQuota leader() {
        return leader;
    }

    /** What this broker's fetchers fetch for throttled replicas outside the ISR. */
    public ReplicationQuota follower() {
        return follower;
    }

    /** What replicas moving between this broker's log directories copy. */
    public ReplicationQuota alterLogDirs() {
        return alterLogDirs;
    }

    /** Re-reads the throttles when the delta changed any config. */
    void apply(MetadataDelta delta, MetadataImage image) {
        if (delta.hasConfigChanges()) {
            update(image);
        }
    }

    /**
     * Takes the copy rate between log directories from {@code image}, the broker's newest, ahead of its publication:
     * DescribeConfigs answers from that image, so a move asked for once it shows the rate is throttled from its first
     * byte (reassign-partitions waits for it).
     */
    public void applyAlterLogDirs(MetadataImage image) {
        setBound(alterLogDirs, ReplicationQuotaConfig.ALTER_LOG_DIRS_RATE, image);
    }

    /** Reads every throttle from the image. */
    void update(MetadataImage image) {
        setBound(leader, ReplicationQuotaConfig.LEADER_RATE, image);
        setBound(follower, ReplicationQuotaConfig.FOLLOWER_RATE, image);
        setBound(alterLogDirs, ReplicationQuotaConfig.ALTER_LOG_DIRS_RATE, image);
        Map<String, Set<Integer>> leaderThrottled = new HashMap<>();
        Map<String, Set<Integer>> followerThrottled = new HashMap<>();
        image.configs().configs().forEach((resource, configs) -> {
            if (resource.type() == ConfigResource.Type.TOPIC) {
                addThrottled(leaderThrottled, resource.name(),
                        configs.get(TopicConfigs.LEADER_REPLICATION_THROTTLED_REPLICAS));
                addThrottled(followerThrottled, resource.name(),
                        configs.get(TopicConfigs.FOLLOWER_REPLICATION_THROTTLED_REPLICAS));
            }
        });
        leader.setThrottled(leaderThrottled);
        follower.setThrottled(followerThrottled);
    }

    private void setBound(ReplicationQuota quota, String key, MetadataImage image) {
        Map<String, String> own = image.configs().configs(ConfigResource.broker(Integer.toString(brokerId)));
        String text = own.getOrDefault(key, image.configs().configs(ConfigResource.broker("")).get(key));
        long bound = ReplicationQuotaConfig.UNLIMITED;
        if (text != null) {
            try {
                bound = Long.parseLong(text.trim());
            } catch (NumberFormatException e) {
                // The controller validates values; this guards against a log written by another tool.
                LOG.warn("Broker {} ignores {}={}: not a number", brokerId, key, text);
            }
        }
        if (bound != quota.bound()) {
            LOG.info("Broker {} sets {} to {}", brokerId, key,
                    bound == ReplicationQuotaConfig.UNLIMITED ? "unlimited" : bound + " bytes/s");
            quota.setBound(bound);
        }
    }

    /** This broker's partitions of a {@code partition:broker,...} or {@code *} list. */
    private void addThrottled(Map<String, Set<Integer>> into, String topic, String list) {
        if (list == null || list.isBlank()) {
            return;
        }
        Set<Integer> partitions = new HashSet<>();
        for (String item : list.split(",")) {
            String entry = item.trim();
            if (entry.equals("*")) {
                partitions.add(ReplicationQuota.ALL);
                continue;
            }
            int colon = entry.indexOf(':');
            if (colon > 0 && entry.substring(colon + 1).trim().equals(Integer.toString(brokerId))) {
                try {
                    partitions.add(Integer.parseInt(entry.substring(0, colon).trim()));
                } catch (NumberFormatException e) {
                    LOG.warn("Broker {} ignores the throttled replica '{}' of topic {}", brokerId, entry, topic);
                }
            }
        }
        if (!partitions.isEmpty()) {
            into.put(topic, partitions);
        }
    }
}
