package io.kraft.broker.group.consumer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The {@code uniform} assignor: every partition of a subscribed topic goes to one subscriber, counts differ by at
 * most one where subscriptions allow, and partitions stay with their current member unless balance needs them
 * elsewhere, so a member joining or leaving moves few partitions. Deterministic for the same input.
 */
public final class UniformAssignor implements PartitionAssignor {
    public static final String NAME = "uniform";

    private record Partition(UUID topic, int id) {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Assignment> assign(List<Subscriber> members, Map<UUID, TopicInfo> topics,
                                          Map<String, Assignment> current) {
        Map<String, Subscriber> byId = new TreeMap<>();
        members.forEach(m -> byId.put(m.memberId(), m));
        Map<String, List<Partition>> owned = new TreeMap<>();
        byId.keySet().forEach(id -> owned.put(id, new ArrayList<>()));
        Map<Partition, String> owner = new HashMap<>();
        // keep what each member had and may still have
        current.forEach((memberId, assignment) -> {
            Subscriber member = byId.get(memberId);
            if (member == null) {
                return;
            }
            assignment.partitions().forEach((topic, ids) -> {
                TopicInfo info = topics.get(topic);
                if (info == null || !member.topics().contains(topic)) {
                    return;
                }
                for (int id : ids) {
                    Partition p = new Partition(topic, id);
                    if (id < info.partitionCount() && !owner.containsKey(p)) {
                        owner.put(p, memberId);
                        owned.get(memberId).add(p);
                    }
                }
            });
        });
        List<Partition> all = allPartitions(topics);
        Map<Partition, List<String>> eligible = new HashMap<>();
        for (Partition p : all) {
            List<String> candidates = new ArrayList<>();
            byId.values().forEach(m -> {
                if (m.topics().contains(p.topic())) {
                    candidates.add(m.memberId());
                }
            });
            eligible.put(p, candidates);
        }
        // members over the balanced share give back their extra partitions first
        shedAboveQuota(owned, owner, all, eligible);
        for (Partition p : all) {
            if (!owner.containsKey(p) && !eligible.get(p).isEmpty()) {
                String least = leastLoaded(eligible.get(p), owned);
                owner.put(p, least);
                owned.get(least).add(p);
            }
        }
        rebalance(owned, owner, eligible);
        Map<String, Assignment> result = new LinkedHashMap<>();
        owned.forEach((memberId, partitions) -> {
            Map<UUID, SortedSet<Integer>> byTopic = new TreeMap<>();
            partitions.forEach(p -> byTopic.computeIfAbsent(p.topic(), t -> new TreeSet<>()).add(p.id()));
            result.put(memberId, new Assignment(byTopic));
        });
        return result;
    }

    private static List<Partition> allPartitions(Map<UUID, TopicInfo> topics) {
        List<Partition> all = new ArrayList<>();
        topics.values().stream().sorted(Comparator.comparing(TopicInfo::name)).forEach(topic -> {
            for (int i = 0; i < topic.partitionCount(); i++) {
                all.add(new Partition(topic.id(), i));
            }
        });
        return all;
    }

    /** With every member subscribed alike, nobody keeps more than the ceiling of partitions / members. */
    private static void shedAboveQuota(Map<String, List<Partition>> owned, Map<Partition, String> owner,
                                       List<Partition> all, Map<Partition, List<String>> eligible) {
        if (owned.isEmpty()) {
            return;
        }
        long assignable = all.stream().filter(p -> !eligible.get(p).isEmpty()).count();
        int ceiling = (int) ((assignable + owned.size() - 1) / owned.size());
        int atCeiling = (int) (assignable % owned.size() == 0 ? owned.size() : assignable % owned.size());
        // those already holding the most keep the ceiling, the rest keep the floor
        List<String> order = new ArrayList<>(owned.keySet());
        order.sort(Comparator.comparingInt((String id) -> -owned.get(id).size()).thenComparing(id -> id));
        for (int i = 0; i < order.size(); i++) {
            List<Partition> partitions = owned.get(order.get(i));
            int quota = i < atCeiling ? ceiling : ceiling - 1;
            while (partitions.size() > Math.max(quota, 0)) {
                owner.remove(partitions.remove(partitions.size() - 1));
            }
        }
    }

    /** Moves partitions from the most to the least loaded eligible member while counts differ by more than one. */
    private static void rebalance(Map<String, List<Partition>> owned, Map<Partition, String> owner,
                                  Map<Partition, List<String>> eligible) {
        boolean moved = true;
        int guard = owner.size() * Math.max(1, owned.size()) + 1;
        while (moved && guard-- > 0) {
            moved = false;
            List<String> byLoad = new ArrayList<>(owned.keySet());
            byLoad.sort(Comparator.comparingInt((String id) -> -owned.get(id).size()).thenComparing(id -> id));
            for (String from : byLoad) {
                for (Partition p : new ArrayList<>(owned.get(from))) {
                    String to = leastLoaded(eligible.get(p), owned);
                    if (owned.get(to).size() + 1 < owned.get(from).size()) {
                        owned.get(from).remove(p);
                        owned.get(to).add(p);
                        owner.put(p, to);
                        moved = true;
                        break;
                    }
                }
                if (moved) {
                    break;
                }
            }
        }
    }

    private static String leastLoaded(List<String> candidates, Map<String, List<Partition>> owned) {
        String best = null;
        for (String candidate : candidates) {
            if (best == null || owned.get(candidate).size() < owned.get(best).size()) {
                best = candidate;
            }
        }
        return best;
    }
}
