package io.kraft.metadata.loader;

import io.kraft.metadata.fault.FaultHandler;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.loop.EventLoop;
import io.kraft.proto.metadata.MetadataRecord;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Hands each new committed image and its delta to the publishers (a broker's components) on their own event loop, so
 * a slow or failing component never holds up the controller or the Raft observer, in log order. While the publishers
 * are behind, the batches committed meanwhile are folded into the one waiting delta (their records replayed into it),
 * so memory stays one delta however far behind they fall. A publisher that throws is a fault: the handler hears one
 * line naming the publisher and the offset, and nothing is published after it.
 */
public final class PublisherQueue {
    /** A publication waiting for the publisher loop: the delta from the last published image, and where it ends. */
    private static final class Pending {
        final MetadataDelta delta;
        MetadataImage image;

        Pending(MetadataDelta delta, MetadataImage image) {
            this.delta = delta;
            this.image = image;
        }
    }

    private final String owner;
    private final EventLoop loop;
    private final FaultHandler faultHandler;
    private final List<MetadataPublisher> publishers = new CopyOnWriteArrayList<>();
    private Pending pending;
    private volatile boolean failed;
    private volatile MetadataImage published = MetadataImage.EMPTY;

    /**
     * @param owner names the node in fault lines, e.g. "Controller 1"
     * @param loop  the publishers' own loop (not the loop of whoever calls {@link #publish})
     */
    public PublisherQueue(String owner, EventLoop loop, FaultHandler faultHandler) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.loop = Objects.requireNonNull(loop, "loop");
        this.faultHandler = Objects.requireNonNull(faultHandler, "faultHandler");
    }

    /** Adds a publisher; it receives every image published from now on. */
    public void register(MetadataPublisher publisher) {
        publishers.add(Objects.requireNonNull(publisher, "publisher"));
    }

    /** The last image every publisher has taken in. */
    public MetadataImage published() {
        return published;
    }

    /**
     * Publishes a committed batch: {@code delta} (from the previously published image) holds {@code records}, from
     * {@code firstOffset} in {@code epoch}, and gives {@code image}. The queue owns the delta from now on.
     */
    public void publishBatch(MetadataDelta delta, MetadataImage image, List<MetadataRecord> records, long firstOffset,
                             int epoch) {
        publishBatches(delta, image, List.of(new MetadataLoader.ReplayedBatch(records, firstOffset, epoch)));
    }

    /**
     * Publishes consecutive committed batches: {@code delta} (from the previously published image) holds
     * {@code batches} and gives {@code image}. The queue owns the delta from now on.
     */
    public void publishBatches(MetadataDelta delta, MetadataImage image, List<MetadataLoader.ReplayedBatch> batches) {
        if (publishers.isEmpty()) {
            published = image; // a dedicated controller has nobody to hand images to: spare the loop a wakeup
            return;
        }
        boolean schedule;
        synchronized (this) {
            if (pending != null) {
                for (MetadataLoader.ReplayedBatch batch : batches) {
                    pending.delta.replayBatch(batch.records(), batch.firstOffset(), batch.epoch());
                }
                pending.image = image;
                return;
            }
            pending = new Pending(delta, image);
            schedule = true;
        }
        if (schedule) {
            loop.execute("publish " + image.offset(), this::deliver);
        }
    }

    /** Publishes a loaded snapshot: {@code delta} is from the empty image, so it replaces whatever is waiting. */
    public void publishSnapshot(MetadataDelta delta, MetadataImage image) {
        if (publishers.isEmpty()) {
            published = image;
            return;
        }
        boolean schedule;
        synchronized (this) {
            schedule = pending == null;
            pending = new Pending(delta, image);
        }
        if (schedule) {
            loop.execute("publish snapshot " + image.offset(), this::deliver);
        }
    }

    private void deliver() {
        Pending next;
        synchronized (this) {
            next = pending;
            pending = null;
        }
        if (next == null || failed) {
            return;
        }
        for (MetadataPublisher publisher : publishers) {
            try {
                publisher.publish(next.delta, next.image);
            } catch (RuntimeException | AssertionError e) {
                failed = true;
                faultHandler.handleFault(owner + ": metadata publisher " + publisher.name() + " failed at offset "
                        + next.image.offset() + ": " + e, e);
                return;
            }
        }
        published = next.image;
    }
}
