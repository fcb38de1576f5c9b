package io.kraft.broker.group;

import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.broker.metrics.MetricName;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The group coordinator's gauges under Kafka's names: Kafka 4.4's {@code kafka.server:type=group-coordinator-metrics}
 * ({@code group-count,protocol=classic}, {@code classic-group-count,state=...}, {@code offset-count}) and the older
 * {@code kafka.coordinator.group:type=GroupMetadataManager} names (NumGroups, NumGroupsStable, ..., NumOffsets) that
 * existing dashboards read. The counts are taken on the coordinator's thread every few seconds (its state is not
 * safe to read from a scrape), so a gauge may lag a change by that long, as Kafka's periodic refresh does.
 */
public final class GroupCoordinatorMetrics {
    /** How often the coordinator's thread counts its groups for the gauges. */
    static final long REFRESH_INTERVAL_MS = 5_000;
    private static final String NEW_DOMAIN = "kafka.server";
    private static final String NEW_TYPE = "group-coordinator-metrics";
    private static final String OLD_DOMAIN = "kafka.coordinator.group";
    private static final String OLD_TYPE = "GroupMetadataManager";
    private static final Map<GroupState, String> OLD_STATE_NAMES = Map.of(
            GroupState.EMPTY, "NumGroupsEmpty",
            GroupState.PREPARING_REBALANCE, "NumGroupsPreparingRebalance",
            GroupState.COMPLETING_REBALANCE, "NumGroupsCompletingRebalance",
            GroupState.STABLE, "NumGroupsStable",
            GroupState.DEAD, "NumGroupsDead");

    private volatile GroupCounts counts = GroupCounts.NONE;

    private GroupCoordinatorMetrics() {
    }

    /** Registers the gauges in {@code metrics} and starts the coordinator's periodic count. */
    public static GroupCoordinatorMetrics register(KafkaMetrics metrics, GroupCoordinatorService coordinator) {
        GroupCoordinatorMetrics gauges = gauges(metrics);
        coordinator.reportCounts(REFRESH_INTERVAL_MS, gauges::update);
        return gauges;
    }

    /** The gauges, registered, showing no groups until {@link #update} is called. */
    static GroupCoordinatorMetrics gauges(KafkaMetrics metrics) {
        GroupCoordinatorMetrics gauges = new GroupCoordinatorMetrics();
        gauges.gauge(metrics, MetricName.of(NEW_DOMAIN, NEW_TYPE, "group-count").tagged("protocol", "classic"),
                "Groups this coordinator holds, by protocol (Dead ones excluded)", GroupCounts::live);
        gauges.gauge(metrics, MetricName.of(OLD_DOMAIN, OLD_TYPE, "NumGroups"),
                "Groups this coordinator holds (Dead ones excluded)", GroupCounts::live);
        gauges.gauge(metrics, MetricName.of(NEW_DOMAIN, NEW_TYPE, "offset-count"),
                "Committed offsets of the groups this coordinator holds", GroupCounts::offsets);
        gauges.gauge(metrics, MetricName.of(OLD_DOMAIN, OLD_TYPE, "NumOffsets"),
                "Committed offsets of the groups this coordinator holds", GroupCounts::offsets);
        for (GroupState state : GroupState.values()) {
            ToIntFunction<GroupCounts> inState = c -> c.inState(state);
            gauges.gauge(metrics, MetricName.of(NEW_DOMAIN, NEW_TYPE, "classic-group-count")
                            .tagged("state", state.wireName().toLowerCase(Locale.ROOT)),
                    "Classic groups this coordinator holds, by state", inState);
            gauges.gauge(metrics, MetricName.of(OLD_DOMAIN, OLD_TYPE, OLD_STATE_NAMES.get(state)),
                    "Groups this coordinator holds in state " + state.wireName(), inState);
        }
        return gauges;
    }

    void update(GroupCounts latest) {
        counts = latest;
    }

    /** The counts the gauges show now. */
    public GroupCounts counts() {
        return counts;
    }

    private void gauge(KafkaMetrics metrics, MetricName name, String help, ToIntFunction<GroupCounts> value) {
        metrics.gauge(name, help, () -> value.applyAsInt(counts));
    }
}
