package io.kraft.metadata.controller;

import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.MetadataChangeListener;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TransactionMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Builds a standby controller's managers (their indexes over the whole image) off the controller's loop, after a
 * snapshot load: at a million partitions the build takes seconds, and the loop goes on applying the log meanwhile,
 * so the member catches up without waiting for it. The entity changes of every delta the loop applies during the
 * build are recorded ({@link #listener()}) and replayed into the managers once they exist, back on the loop, so they
 * end where a standby that followed the log all along would be. Nothing reads the managers before that: the
 * controller has no standby until {@code whenReady} hands it over, and one that must serve first builds its own on
 * the loop and {@link #cancel}s this build (its result is then dropped). Used on the controller's loop only, except
 * that the build itself runs on {@code builder}.
 */
final class StandbyBuild {
    private final Executor builder;
    private final Consumer<Runnable> loop;
    private final Function<MetadataImage, ControlManagers> factory;
    /** Tells a finished build whether it is still wanted: each start and cancel moves it on. */
    private long generation;
    /** The changes applied since the running build's image; null when no build runs. */
    private List<Consumer<MetadataChangeListener>> changesSince;

    /**
     * @param builder where the managers are built (a thread of their own; a simulation may run them in line)
     * @param loop    runs a task on the controller's loop
     * @param factory the managers over a committed image
     */
    StandbyBuild(Executor builder, Consumer<Runnable> loop, Function<MetadataImage, ControlManagers> factory) {
        this.builder = Objects.requireNonNull(builder, "builder");
        this.loop = Objects.requireNonNull(loop, "loop");
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    /** Whether a build is under way. */
    boolean running() {
        return changesSince != null;
    }

    /**
     * Starts building managers over {@code image} (the committed image now); {@code whenReady} gets them on the loop,
     * having heard every change recorded since, unless the build was cancelled or started again first.
     */
    void start(MetadataImage image, Consumer<ControlManagers> whenReady) {
        start(image, (built, timing) -> whenReady.accept(built));
    }

    /** As {@link #start(MetadataImage, Consumer)}, also telling {@code whenReady} where the build's time went. */
    void start(MetadataImage image, BiConsumer<ControlManagers, Timing> whenReady) {
        long started = ++generation;
        List<Consumer<MetadataChangeListener>> changes = new ArrayList<>();
        changesSince = changes;
        long queuedAt = System.nanoTime();
        builder.execute(() -> {
            long buildStart = System.nanoTime();
            ControlManagers built = factory.apply(image);
            long builtAt = System.nanoTime();
            loop.accept(() -> {
                if (generation != started) {
                    return;
                }
                long replayStart = System.nanoTime();
                MetadataChangeListener indexes = built.committedChanges();
                changes.forEach(change -> change.accept(indexes));
                changesSince = null;
                long replayNanos = System.nanoTime() - replayStart;
                whenReady.accept(built, new Timing(buildStart - queuedAt, builtAt - buildStart,
                        replayStart - builtAt, replayNanos, changes.size()));
            });
        });
    }

    /**
     * Where a build's time went: waiting for the builder thread, building the indexes there, waiting for the loop, and
     * replaying the {@code changes} applied meanwhile on the loop.
     */
    record Timing(long queuedNanos, long buildNanos, long loopWaitNanos, long replayNanos, int changes) {
    }

    /** Drops the build under way, if any: its managers are never handed over. */
    void cancel() {
        generation++;
        changesSince = null;
    }

    /** Where the deltas applied while a build runs report their changes (records them); nothing otherwise. */
    MetadataChangeListener listener() {
        return changesSince == null ? MetadataChangeListener.NONE : new Recorder(changesSince);
    }

    /** Records each change as a call to replay on the managers' own listener. */
    private record Recorder(List<Consumer<MetadataChangeListener>> changes) implements MetadataChangeListener {
        @Override
        public void brokerChanged(BrokerRegistration before, BrokerRegistration after, long offset) {
            changes.add(l -> l.brokerChanged(before, after, offset));
        }

        @Override
        public void topicCreated(UUID topicId, String name) {
            changes.add(l -> l.topicCreated(topicId, name));
        }

        @Override
        public void topicRemoved(UUID topicId, String name) {
            changes.add(l -> l.topicRemoved(topicId, name));
        }

        @Override
        public void partitionChanged(TopicIdPartition partition, PartitionRegistration before,
                                     PartitionRegistration after) {
            changes.add(l -> l.partitionChanged(partition, before, after));
        }

        @Override
        public void transactionChanged(TransactionMetadata before, TransactionMetadata after) {
            changes.add(l -> l.transactionChanged(before, after));
        }

        @Override
        public void aclChanged(UUID id, StandardAcl before, StandardAcl after) {
            changes.add(l -> l.aclChanged(id, before, after));
        }
    }
}
