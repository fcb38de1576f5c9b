package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.metadata.image.TopicIdPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PartitionsByBrokerTest {
    private static final UUID TOPIC = new UUID(1, 2);
    private static final UUID OTHER = new UUID(3, 4);

    @Test
    void holdsEachBrokersPartitionsUntilRemoved() {
        PartitionsByBroker members = new PartitionsByBroker();
        members.add(1, new TopicIdPartition(TOPIC, 0));
        members.add(1, new TopicIdPartition(TOPIC, 70));
        members.add(1, new TopicIdPartition(OTHER, 3));
        members.add(2, new TopicIdPartition(TOPIC, 0));
        members.remove(2, new TopicIdPartition(TOPIC, 0));
        members.remove(3, new TopicIdPartition(TOPIC, 0)); // never a member: nothing to do

        List<TopicIdPartition> ofBroker1 = new ArrayList<>();
        members.forEach(1, ofBroker1::add);
        assertEquals(Set.of(new TopicIdPartition(TOPIC, 0), new TopicIdPartition(TOPIC, 70),
                new TopicIdPartition(OTHER, 3)), Set.copyOf(ofBroker1));
        assertEquals(3, ofBroker1.size());
        assertEquals(Map.of(1, Set.copyOf(ofBroker1)), members.toMap(), "a broker left with nothing is not listed");
    }
}
