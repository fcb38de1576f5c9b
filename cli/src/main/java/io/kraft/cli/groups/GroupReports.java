package io.kraft.cli.groups;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;

/**
 * The tables of {@code kraft-cli groups}, with the column names of Kafka's {@code kafka-consumer-groups.sh} so
 * scripts that read that tool's output keep working; {@code -} stands for a value that is not known.
 */
public final class GroupReports {
    static final String UNKNOWN = "-";

    private GroupReports() {
    }

    /** {@code --list --state}: each group and its state. */
    public static TextTable listing(List<GroupListing> groups) {
        TextTable table = new TextTable("GROUP", "STATE");
        for (GroupListing group : groups) {
            table.add(List.of(group.groupId(), group.groupState().map(Object::toString).orElse(UNKNOWN)));
        }
        return table;
    }

    /** {@code --describe [--offsets]}: committed offset, log end offset and lag per partition, and its owner. */
    public static TextTable offsets(List<PartitionLag> rows) {
        TextTable table = new TextTable("GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG",
                "CONSUMER-ID", "HOST", "CLIENT-ID");
        for (PartitionLag row : rows) {
            table.add(List.of(row.group(), row.topic(), Integer.toString(row.partition()),
                    text(row.committedOffset()), text(row.logEndOffset()), text(row.lag()),
                    row.owner().map(MemberDescription::consumerId).map(GroupReports::text).orElse(UNKNOWN),
                    row.owner().map(MemberDescription::host).map(GroupReports::text).orElse(UNKNOWN),
                    row.owner().map(MemberDescription::clientId).map(GroupReports::text).orElse(UNKNOWN)));
        }
        return table;
    }

    /**
     * {@code --describe --members}: each member with how many partitions it owns, and with {@code verbose}
     * which ones, as {@code topic(0,1),other(2)}. A consumer-protocol group (KIP-848) also shows each member's epoch,
     * and with {@code verbose} its target assignment at the group's target assignment epoch.
     */
    public static TextTable members(ConsumerGroupDescription group, boolean verbose) {
        boolean consumerProtocol = group.type() == GroupType.CONSUMER;
        List<String> header = new ArrayList<>(List.of("GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS"));
        if (consumerProtocol) {
            header.add("CURRENT-EPOCH");
        }
        if (verbose) {
            header.add(consumerProtocol ? "CURRENT-ASSIGNMENT" : "ASSIGNMENT");
        }
        if (verbose && consumerProtocol) {
            header.addAll(List.of("TARGET-EPOCH", "TARGET-ASSIGNMENT"));
        }
        TextTable table = new TextTable(header.toArray(String[]::new));
        List<MemberDescription> members = new ArrayList<>(group.members());
        members.sort(Comparator.comparing(MemberDescription::consumerId));
        for (MemberDescription member : members) {
            List<String> row = new ArrayList<>(List.of(group.groupId(), text(member.consumerId()),
                    text(member.host()), text(member.clientId()),
                    Integer.toString(member.assignment().topicPartitions().size())));
            if (consumerProtocol) {
                row.add(member.memberEpoch().map(String::valueOf).orElse(UNKNOWN));
            }
            if (verbose) {
                row.add(assignment(member.assignment().topicPartitions()));
            }
            if (verbose && consumerProtocol) {
                row.add(group.targetAssignmentEpoch().map(String::valueOf).orElse(UNKNOWN));
                row.add(member.targetAssignment().map(target -> assignment(target.topicPartitions())).orElse(UNKNOWN));
            }
            table.add(row);
        }
        return table;
    }

    /** {@code --describe --state}: the coordinator, the chosen assignor, the state and the member count. */
    public static TextTable state(ConsumerGroupDescription group) {
        TextTable table = new TextTable("GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS");
        Node coordinator = group.coordinator();
        String coordinatorText = coordinator == null || coordinator.isEmpty() ? UNKNOWN
                : coordinator.host() + ":" + coordinator.port() + " (" + coordinator.idString() + ")";
        table.add(List.of(group.groupId(), coordinatorText, text(group.partitionAssignor()),
                group.groupState().toString(), Integer.toString(group.members().size())));
        return table;
    }

    /** {@code --reset-offsets}: the offset each partition gets (or, with --dry-run, would get). */
    public static TextTable resetPlan(String group, Map<TopicPartition, Long> plan) {
        TextTable table = new TextTable("GROUP", "TOPIC", "PARTITION", "NEW-OFFSET");
        plan.forEach((partition, offset) -> table.add(List.of(group, partition.topic(),
                Integer.toString(partition.partition()), Long.toString(offset))));
        return table;
    }

    /** A member's partitions as {@code topic(0,1),other(2)}, topics and partitions in order, or "-" when none. */
    public static String assignment(Collection<TopicPartition> partitions) {
        Map<String, TreeSet<Integer>> byTopic = new TreeMap<>();
        for (TopicPartition partition : partitions) {
            byTopic.computeIfAbsent(partition.topic(), topic -> new TreeSet<>()).add(partition.partition());
        }
        if (byTopic.isEmpty()) {
            return UNKNOWN;
        }
        return byTopic.entrySet().stream()
                .map(entry -> entry.getKey() + "(" + entry.getValue().stream().map(String::valueOf)
                        .collect(Collectors.joining(",")) + ")")
                .collect(Collectors.joining(","));
    }

    private static String text(OptionalLong value) {
        return value.isPresent() ? Long.toString(value.getAsLong()) : UNKNOWN;
    }

    private static String text(String value) {
        return value == null || value.isEmpty() ? UNKNOWN : value;
    }
}
