package io.kraft.broker.group.consumer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The {@code range} assignor: per topic, its subscribers in member id order get consecutive ranges of partitions,
 * the first ones one more when the count does not divide, so members subscribed alike get the same partition
 * numbers of co-partitioned topics.
 */
public final class RangeAssignor implements PartitionAssignor {
    public static final String NAME = "range";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Assignment> assign(List<Subscriber> members, Map<UUID, TopicInfo> topics,
                                          Map<String, Assignment> current) {
        Map<String, Map<UUID, SortedSet<Integer>>> out = new TreeMap<>();
        members.forEach(m -> out.put(m.memberId(), new TreeMap<>()));
        topics.values().stream().sorted(Comparator.comparing(TopicInfo::name)).forEach(topic -> {
            List<String> subscribers = new ArrayList<>();
            members.stream().filter(m -> m.topics().contains(topic.id())).map(Subscriber::memberId).sorted()
                    .forEach(subscribers::add);
            if (subscribers.isEmpty()) {
                return;
            }
            int each = topic.partitionCount() / subscribers.size();
            int extra = topic.partitionCount() % subscribers.size();
            int next = 0;
            for (int i = 0; i < subscribers.size(); i++) {
                int count = each + (i < extra ? 1 : 0);
                SortedSet<Integer> ids = new TreeSet<>();
                for (int k = 0; k < count; k++) {
                    ids.add(next++);
                }
                if (!ids.isEmpty()) {
                    out.get(subscribers.get(i)).put(topic.id(), ids);
                }
            }
        });
        Map<String, Assignment> result = new LinkedHashMap<>();
        out.forEach((memberId, byTopic) -> result.put(memberId, new Assignment(byTopic)));
        return result;
    }
}
