package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kraft.metadata.controller.BrokerLiveness.UsableBroker;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ReplicaPlacerTest {
    private static List<UsableBroker> brokers(String... racks) {
        return IntStream.range(0, racks.length)
                .mapToObj(i -> new UsableBroker(i + 1, Optional.ofNullable(racks[i])))
                .toList();
    }

    private static Map<Integer, Integer> count(List<List<Integer>> assignments, boolean leadersOnly) {
        Map<Integer, Integer> counts = new HashMap<>();
        for (List<Integer> replicas : assignments) {
            for (int broker : leadersOnly ? replicas.subList(0, 1) : replicas) {
                counts.merge(broker, 1, Integer::sum);
            }
        }
        return counts;
    }

    @Test
    void spreadsReplicasAndPreferredLeadersEvenly() {
        List<List<Integer>> placed = ReplicaPlacer.place(6, 3, brokers(null, null, null), Map.of(), Map.of(),
                new Random(7));
        assertEquals(Map.of(1, 6, 2, 6, 3, 6), count(placed, false));
        assertEquals(Map.of(1, 2, 2, 2, 3, 2), count(placed, true));
        placed.forEach(replicas -> assertEquals(3, new HashSet<>(replicas).size()));
    }

    @Test
    void balancesAcrossTopicsUsingExistingLoad() {
        // Broker 1 already leads three partitions: the next ones go elsewhere first.
        List<List<Integer>> placed = ReplicaPlacer.place(2, 1, brokers(null, null, null), Map.of(1, 3),
                Map.of(1, 3), new Random(1));
        assertEquals(Map.of(2, 1, 3, 1), count(placed, true));
    }

    @Test
    void spreadsANewTopicsLeadersEvenlyWhateverTheClusterAlreadyHolds() {
        // Broker 3 leads one older partition: evening out the cluster would lead the new topic 3/2/1 (or 2/2/1 and
        // 1 more), binding its consumers to one broker. Each broker leads two of the six; the older load only
        // decides who goes first.
        for (int seed = 0; seed < 20; seed++) {
            List<List<Integer>> placed = ReplicaPlacer.place(6, 3, brokers(null, null, null), Map.of(3, 1),
                    Map.of(3, 1), new Random(seed));
            assertEquals(Map.of(1, 2, 2, 2, 3, 2), count(placed, true), "seed " + seed);
            assertEquals(Map.of(1, 6, 2, 6, 3, 6), count(placed, false), "seed " + seed);
        }
    }

    @Test
    void putsReplicasOfAPartitionOnDifferentRacks() {
        List<UsableBroker> brokers = brokers("a", "a", "a", "b", "b", "c");
        for (int seed = 0; seed < 20; seed++) {
            List<List<Integer>> placed = ReplicaPlacer.place(12, 3, brokers, Map.of(), Map.of(), new Random(seed));
            for (List<Integer> replicas : placed) {
                assertEquals(3, replicas.stream().map(id -> brokers.get(id - 1).rack()).distinct().count(),
                        "seed " + seed + ": " + replicas);
            }
            assertEquals(6, count(placed, true).size(), "every broker leads some partition");
        }
    }

    @Test
    void moreReplicasThanRacksStillSpreadsOverAllRacks() {
        List<UsableBroker> brokers = brokers("a", "a", "b", "b");
        List<List<Integer>> placed = ReplicaPlacer.place(4, 3, brokers, Map.of(), Map.of(), new Random(5));
        for (List<Integer> replicas : placed) {
            assertEquals(2, replicas.stream().map(id -> brokers.get(id - 1).rack()).distinct().count());
        }
        assertEquals(Map.of(1, 3, 2, 3, 3, 3, 4, 3), count(placed, false));
    }

    @Test
    void refusesMoreReplicasThanBrokers() {
        assertThrows(IllegalArgumentException.class,
                () -> ReplicaPlacer.place(1, 3, brokers(null, null), Map.of(), Map.of(), new Random(1)));
    }
}
