package io.kraft.broker.group.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UniformAssignorTest {
    private static final UUID T = new UUID(0, 1);
    private static final UUID U = new UUID(0, 2);
    private static final Map<UUID, TopicInfo> TOPICS = Map.of(T, new TopicInfo(T, "t", 12));
    private final UniformAssignor assignor = new UniformAssignor();

    private static List<PartitionAssignor.Subscriber> members(int count) {
        List<PartitionAssignor.Subscriber> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new PartitionAssignor.Subscriber("m" + i, Set.of(T)));
        }
        return out;
    }

    private static void assertCoversOnce(Map<String, Assignment> result, int partitions) {
        Set<Integer> seen = new HashSet<>();
        int total = 0;
        for (Assignment a : result.values()) {
            total += a.size();
            a.partitions().getOrDefault(T, new java.util.TreeSet<>()).forEach(seen::add);
        }
        assertEquals(partitions, total);
        assertEquals(partitions, seen.size());
    }

    @Test
    void spreadsPartitionsEvenly() {
        Map<String, Assignment> result = assignor.assign(members(5), TOPICS, Map.of());
        assertCoversOnce(result, 12);
        result.values().forEach(a -> assertTrue(a.size() == 2 || a.size() == 3, a.toString()));
    }

    @Test
    void aJoiningMemberMovesOnlyItsShare() {
        Map<String, Assignment> three = assignor.assign(members(3), TOPICS, Map.of());
        Map<String, Assignment> six = assignor.assign(members(6), TOPICS, three);
        assertCoversOnce(six, 12);
        int kept = 0;
        for (int i = 0; i < 3; i++) {
            kept += six.get("m" + i).intersect(three.get("m" + i)).size();
            assertEquals(2, six.get("m" + i).size());
        }
        assertEquals(6, kept, "the first three keep half of what they had");
    }

    @Test
    void isDeterministic() {
        assertEquals(assignor.assign(members(4), TOPICS, Map.of()), assignor.assign(members(4), TOPICS, Map.of()));
    }

    @Test
    void membersOnlyGetTopicsTheySubscribeTo() {
        Map<UUID, TopicInfo> topics = Map.of(T, new TopicInfo(T, "t", 4), U, new TopicInfo(U, "u", 4));
        List<PartitionAssignor.Subscriber> members = List.of(
                new PartitionAssignor.Subscriber("a", Set.of(T)),
                new PartitionAssignor.Subscriber("b", Set.of(T, U)));
        Map<String, Assignment> result = assignor.assign(members, topics, Map.of());
        assertTrue(result.get("a").partitions().keySet().equals(Set.of(T)));
        assertEquals(8, result.get("a").size() + result.get("b").size());
        assertEquals(4, result.get("a").size());
    }

    @Test
    void rangeGivesConsecutivePartitions() {
        Map<String, Assignment> result = new RangeAssignor().assign(members(5), TOPICS, Map.of());
        assertEquals(Assignment.of(T, 0, 1, 2), result.get("m0"));
        assertEquals(Assignment.of(T, 3, 4, 5), result.get("m1"));
        assertEquals(Assignment.of(T, 10, 11), result.get("m4"));
    }
}
