package io.kraft.raft.sim;

import io.kraft.raft.Role;
import java.util.HashMap;
import java.util.Map;

/** At most one leader per epoch, ever; and every member that names a leader for an epoch names the same one. */
final class SingleLeaderPerEpoch implements Invariant {
    private final Map<Integer, Integer> leaderByEpoch = new HashMap<>();

    @Override
    public void check(SimCluster cluster) {
        for (SimNode node : cluster.nodes()) {
            if (!node.isUp() || node.raft().leaderId().isEmpty()) {
                continue;
            }
            int epoch = node.raft().epoch();
            int leader = node.raft().leaderId().getAsInt();
            if (node.raft().role() == Role.LEADER && leader != node.id()) {
                throw cluster.violation("node " + node.id() + " leads but names " + leader + " as leader");
            }
            Integer known = leaderByEpoch.putIfAbsent(epoch, leader);
            if (known != null && known != leader) {
                throw cluster.violation("two leaders in epoch " + epoch + ": " + known + " and " + leader
                        + " (seen by node " + node.id() + ")");
            }
        }
    }
}
