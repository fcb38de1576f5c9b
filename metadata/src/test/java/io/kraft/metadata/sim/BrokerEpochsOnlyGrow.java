package io.kraft.metadata.sim;

import io.kraft.metadata.image.BrokerRegistration;

/**
 * Broker epochs only grow: every registration that commits has an epoch above every epoch registered before it, and
 * no controller's image ever shows a broker with a lower epoch than it showed before.
 */
final class BrokerEpochsOnlyGrow implements Invariant {
    private final ImageWatch watch = new ImageWatch();

    @Override
    public void check(SimCluster cluster) {
        if (!cluster.committedLog().epochRegressions().isEmpty()) {
            throw cluster.violation(cluster.committedLog().epochRegressions().get(0));
        }
        watch.forEachChanged(cluster, (controller, previous, image) -> {
            if (previous == null) {
                return;
            }
            for (BrokerRegistration before : previous.cluster().brokers().values()) {
                BrokerRegistration now = image.cluster().broker(before.id());
                if (now == null || now.epoch() < before.epoch()) {
                    throw cluster.violation("controller " + controller.id + " at offset " + image.offset()
                            + " shows broker " + before.id() + " as " + now + " after epoch " + before.epoch());
                }
            }
        });
    }
}
