package io.kraft.broker.lifecycle;

import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Opens the broker's client listener once the broker's own metadata shows it registered at its current epoch and
 * unfenced: from then on every Metadata answer it gives lists at least itself, never an empty cluster (Kafka, too,
 * serves clients only once its broker is caught up and unfenced). Checked on every published image and when the
 * controller first unfences the broker, so whichever comes last opens it.
 */
public final class ClientListenerGate implements MetadataPublisher {
    private final int brokerId;
    private final LongSupplier brokerEpoch;
    private final Runnable openListener;
    private final AtomicBoolean opened = new AtomicBoolean();
    private final CompletableFuture<Void> ready = new CompletableFuture<>();

    /**
     * @param brokerEpoch  this incarnation's registration epoch, -1 before it registered (an unfenced registration of
     *                     an earlier incarnation, still in the metadata, must not open the listener)
     * @param openListener starts accepting connections; runs once
     */
    public ClientListenerGate(int brokerId, LongSupplier brokerEpoch, Runnable openListener) {
        this.brokerId = brokerId;
        this.brokerEpoch = brokerEpoch;
        this.openListener = openListener;
    }

    @Override
    public void publish(MetadataDelta delta, MetadataImage image) {
        check(image);
    }

    /** Opens the listener if {@code image} shows this incarnation unfenced. */
    public void check(MetadataImage image) {
        if (opened.get()) {
            return;
        }
        long epoch = brokerEpoch.getAsLong();
        BrokerRegistration registration = image.cluster().broker(brokerId);
        if (epoch < 0 || registration == null || registration.epoch() != epoch || registration.fenced()) {
            return;
        }
        if (opened.compareAndSet(false, true)) {
            try {
                openListener.run();
                ready.complete(null);
            } catch (RuntimeException e) {
                ready.completeExceptionally(e);
                throw e;
            }
        }
    }

    /** Completes once the listener accepts connections. */
    public CompletableFuture<Void> ready() {
        return ready;
    }

    @Override
    public String name() {
        return "ClientListenerGate";
    }
}
