package io.kraft.cli.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberAssignment;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class GroupReportsTest {
    private static ConsumerGroupDescription group(GroupType type) {
        MemberDescription member = new MemberDescription("m1", Optional.empty(), Optional.empty(), "client-1",
                "/10.0.0.1", new MemberAssignment(Set.of(new TopicPartition("t", 0))),
                Optional.of(new MemberAssignment(Set.of(new TopicPartition("t", 0), new TopicPartition("t", 1)))),
                Optional.of(7), Optional.empty());
        return new ConsumerGroupDescription("g", false, List.of(member), "uniform", type, GroupState.RECONCILING,
                new Node(1, "h", 9092), Set.of(), Optional.of(8), Optional.of(8));
    }

    @Test
    void consumerProtocolMembersShowTheirEpochAndTargetAssignment() {
        List<String> lines = GroupReports.members(group(GroupType.CONSUMER), true).lines();
        assertEquals(List.of("GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "CURRENT-EPOCH",
                "CURRENT-ASSIGNMENT", "TARGET-EPOCH", "TARGET-ASSIGNMENT"), List.of(lines.get(0).trim().split("\\s+")));
        assertEquals(List.of("g", "m1", "/10.0.0.1", "client-1", "1", "7", "t(0)", "8", "t(0,1)"),
                List.of(lines.get(1).trim().split("\\s+")));
    }

    @Test
    void classicMembersKeepKafkasColumns() {
        String header = GroupReports.members(group(GroupType.CLASSIC), false).lines().get(0);
        assertEquals(List.of("GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS"),
                List.of(header.trim().split("\\s+")));
    }
}
