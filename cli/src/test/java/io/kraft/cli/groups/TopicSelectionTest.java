package io.kraft.cli.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** --topic TOPIC and --topic TOPIC:P,P,... for resets. */
class TopicSelectionTest {
    @Test
    void aTopicAloneMeansAllItsPartitions() {
        assertEquals(new TopicSelection("orders.v2", Optional.empty()), TopicSelection.parse("orders.v2"));
    }

    @Test
    void listedPartitionsAreKept() {
        assertEquals(new TopicSelection("orders", Optional.of(Set.of(0, 2, 5))), TopicSelection.parse("orders:5,0,2"));
    }

    @Test
    void malformedSelectionsNameTheProblem() {
        for (String bad : new String[] {"orders:", "orders:1,,2", "orders:x", "orders:-1", ":1", ""}) {
            GroupOptionsException failure = assertThrows(GroupOptionsException.class,
                    () -> TopicSelection.parse(bad), bad);
            assertTrue(failure.getMessage().startsWith("Invalid --topic '" + bad + "'"), failure.getMessage());
        }
    }
}
