package io.kraft.metadata.sim;

/** Each controller publishes its images in log order, each one later than the one before. */
final class PublishedImagesInLogOrder implements Invariant {
    @Override
    public void check(SimCluster cluster) {
        for (SimController controller : cluster.controllers().values()) {
            if (!controller.publishingProblems.isEmpty()) {
                throw cluster.violation(controller.publishingProblems.get(0));
            }
        }
    }
}
