package io.kraft.server.group;

import io.kraft.broker.group.GroupConfig;
import io.kraft.server.TestNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** The node group tests run against: no initial rebalance delay and few offsets partitions, so tests stay quick. */
final class GroupTests {
    private GroupTests() {
    }

    static TestNode node(Path dir) throws IOException {
        return new TestNode(dir, Map.of(GroupConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "0",
                GroupConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "5"));
    }
}
