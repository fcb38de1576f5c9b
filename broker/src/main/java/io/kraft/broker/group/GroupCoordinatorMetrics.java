package io.kraft.broker.group;

import io.kraft.broker.group.GroupCounts.GroupOffset;
import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.broker.metrics.MetricName;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The group coordinator's gauges under Kafka's names: Kafka 4.4's {@code kafka.server:type=group-coordinator-metrics}
 * ({@code group-count,protocol=classic|consumer}, {@code classic-group-count,state=...},
 * {@code consumer-group-count,state=...}, {@code offset-count}) and the older
 * {@code kafka.coordinator.group:type=GroupMetadataManager} names (NumGroups, NumGroupsStable, ..., NumOffsets) that
 * existing dashboards read; and consumer-group lag, which Kafka leaves to outside exporters: per group and partition
 * ({@code kafka.server:type=ConsumerGroupLag,name=Lag,group=,topic=,partition=}) and per group ({@code name=LagSum}),
 * the partition's high watermark minus the committed offset, for the partitions whose high watermark this broker
 * knows (it hosts a replica). The counts are taken on the coordinator's thread every few seconds (its state is not
 * safe to read from a scrape), so a gauge may lag a change by that long, as Kafka's periodic refresh does.
 */
public final class GroupCoordinatorMetrics {
    /** How often the coordinator's thread counts its groups for the gauges. */
    static final long REFRESH_INTERVAL_MS = 5_000;
    private static final String NEW_DOMAIN = "kafka.server";
    private static final String NEW_TYPE = "group-coordinator-metrics";
    private static final String OLD_DOMAIN = "kafka.coordinator.group";
    private static final String OLD_TYPE = "GroupMetadataManager";
    private static final String LAG_TYPE = "ConsumerGroupLag";
    private static final Map<GroupState, String> OLD_STATE_NAMES = Map.of(
            GroupState.EMPTY, "NumGroupsEmpty",
            GroupState.PREPARING_REBALANCE, "NumGroupsPreparingRebalance",
            GroupState.COMPLETING_REBALANCE, "NumGroupsCompletingRebalance",
            GroupState.STABLE, "NumGroupsStable",
            GroupState.DEAD, "NumGroupsDead");

    /** A partition's high watermark as this broker knows it, or a negative value when it hosts no replica. */
    @FunctionalInterface
    public interface HighWatermarks {
        long of(OffsetKey partition);
    }

    private final KafkaMetrics metrics;
    private final HighWatermarks highWatermarks;
    private volatile GroupCounts counts = GroupCounts.NONE;
    /** The lag each registered series shows; keys are added and removed by {@link #update} only. */
    private final Map<GroupOffset, Long> lags = new ConcurrentHashMap<>();
    private final Map<String, Long> lagSums = new ConcurrentHashMap<>();

    private GroupCoordinatorMetrics(KafkaMetrics metrics, HighWatermarks highWatermarks) {
        this.metrics = metrics;
        this.highWatermarks = highWatermarks;
    }

    /** Registers the gauges in {@code metrics} and starts the coordinator's periodic count. */
    public static GroupCoordinatorMetrics register(KafkaMetrics metrics, GroupCoordinatorService coordinator,
                                                   HighWatermarks highWatermarks) {
        GroupCoordinatorMetrics gauges = gauges(metrics, highWatermarks);
        coordinator.reportCounts(REFRESH_INTERVAL_MS, gauges::update);
        return gauges;
    }

    /** The gauges, registered, showing no groups until {@link #update} is called. */
    static GroupCoordinatorMetrics gauges(KafkaMetrics metrics, HighWatermarks highWatermarks) {
        GroupCoordinatorMetrics gauges = new GroupCoordinatorMetrics(metrics, highWatermarks);
        gauges.gauge(MetricName.of(NEW_DOMAIN, NEW_TYPE, "group-count").tagged("protocol", "classic"),
                "Groups this coordinator holds, by protocol (Dead ones excluded)", GroupCounts::live);
        gauges.gauge(MetricName.of(NEW_DOMAIN, NEW_TYPE, "group-count").tagged("protocol", "consumer"),
                "Groups this coordinator holds, by protocol (Dead ones excluded)", GroupCounts::consumerGroups);
        gauges.gauge(MetricName.of(OLD_DOMAIN, OLD_TYPE, "NumGroups"),
                "Groups this coordinator holds (Dead ones excluded)", c -> c.live() + c.consumerGroups());
        for (String state : GroupCounts.CONSUMER_STATES) {
            gauges.gauge(MetricName.of(NEW_DOMAIN, NEW_TYPE, "consumer-group-count").tagged("state", state),
                    "Consumer-protocol groups (KIP-848) this coordinator holds, by state",
                    c -> c.consumerInState(state));
        }
        gauges.gauge(MetricName.of(NEW_DOMAIN, NEW_TYPE, "offset-count"),
                "Committed offsets of the groups this coordinator holds", GroupCounts::offsets);
        gauges.gauge(MetricName.of(OLD_DOMAIN, OLD_TYPE, "NumOffsets"),
                "Committed offsets of the groups this coordinator holds", GroupCounts::offsets);
        for (GroupState state : GroupState.values()) {
            ToIntFunction<GroupCounts> inState = c -> c.inState(state);
            gauges.gauge(MetricName.of(NEW_DOMAIN, NEW_TYPE, "classic-group-count")
                            .tagged("state", state.wireName().toLowerCase(Locale.ROOT)),
                    "Classic groups this coordinator holds, by state", inState);
            gauges.gauge(MetricName.of(OLD_DOMAIN, OLD_TYPE, OLD_STATE_NAMES.get(state)),
                    "Groups this coordinator holds in state " + state.wireName(), inState);
        }
        return gauges;
    }

    /** Takes a new count (on the coordinator's thread): the gauges show it, lag series come and go with offsets. */
    synchronized void update(GroupCounts latest) {
        counts = latest;
        Map<GroupOffset, Long> latestLags = new HashMap<>();
        Map<String, Long> latestSums = new HashMap<>();
        latest.committed().forEach((key, offset) -> {
            long highWatermark = highWatermarks.of(key.partition());
            if (highWatermark >= 0) {
                long lag = Math.max(0, highWatermark - offset);
                latestLags.put(key, lag);
                latestSums.merge(key.group(), lag, Long::sum);
            }
        });
        show(lags, latestLags, GroupCoordinatorMetrics::lagName,
                "The partition's high watermark minus the group's committed offset");
        show(lagSums, latestSums, GroupCoordinatorMetrics::lagSumName,
                "The group's lag summed over the partitions this broker knows");
    }

    /** Makes {@code shown} hold {@code latest}, registering a gauge per new key and removing those of gone keys. */
    private <K> void show(Map<K, Long> shown, Map<K, Long> latest, Function<K, MetricName> name, String help) {
        latest.forEach((key, value) -> {
            if (shown.put(key, value) == null) {
                metrics.gauge(name.apply(key), help, () -> shown.getOrDefault(key, 0L));
            }
        });
        for (K gone : Set.copyOf(shown.keySet())) {
            if (!latest.containsKey(gone)) {
                shown.remove(gone);
                metrics.remove(name.apply(gone));
            }
        }
    }

    /** The counts the gauges show now. */
    public GroupCounts counts() {
        return counts;
    }

    private static MetricName lagName(GroupOffset key) {
        return MetricName.of(NEW_DOMAIN, LAG_TYPE, "Lag").tagged("group", key.group())
                .tagged("topic", key.partition().topic())
                .tagged("partition", Integer.toString(key.partition().partition()));
    }

    private static MetricName lagSumName(String group) {
        return MetricName.of(NEW_DOMAIN, LAG_TYPE, "LagSum").tagged("group", group);
    }

    private void gauge(MetricName name, String help, ToIntFunction<GroupCounts> value) {
        metrics.gauge(name, help, () -> value.applyAsInt(counts));
    }
}
