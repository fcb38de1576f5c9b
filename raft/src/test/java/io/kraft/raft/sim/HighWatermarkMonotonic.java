package io.kraft.raft.sim;

import java.util.HashMap;
import java.util.Map;

/** A member's high watermark only grows while it runs (a restart starts again from what it relearns). */
final class HighWatermarkMonotonic implements Invariant {
    private record Incarnation(int nodeId, int incarnation) {
    }

    private final Map<Incarnation, Long> lastSeen = new HashMap<>();

    @Override
    public void check(SimCluster cluster) {
        for (SimNode node : cluster.nodes()) {
            if (!node.isUp()) {
                continue;
            }
            long highWatermark = node.raft().highWatermark();
            Long previous = lastSeen.put(new Incarnation(node.id(), node.incarnation()), highWatermark);
            if (previous != null && highWatermark < previous) {
                throw cluster.violation("node " + node.id() + " high watermark went back from " + previous
                        + " to " + highWatermark);
            }
            if (highWatermark > node.log().endOffset()) {
                throw cluster.violation("node " + node.id() + " high watermark " + highWatermark
                        + " is past its log end " + node.log().endOffset());
            }
        }
    }
}
