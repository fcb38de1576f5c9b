package io.kraft.metadata.sim;

import java.util.HashMap;
import java.util.Map;

/** At most one controller ever serves a given epoch as the active controller. */
final class OneActiveControllerPerEpoch implements Invariant {
    private final Map<Integer, Integer> activeByEpoch = new HashMap<>();

    @Override
    public void check(SimCluster cluster) {
        for (SimController controller : cluster.controllers().values()) {
            controller.controller.activeEpoch().ifPresent(epoch -> {
                Integer known = activeByEpoch.putIfAbsent(epoch, controller.id);
                if (known != null && known != controller.id) {
                    throw cluster.violation("controllers " + known + " and " + controller.id + " both served epoch "
                            + epoch);
                }
            });
        }
    }
}
