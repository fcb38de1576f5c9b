package io.kraft.metadata.image;

import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.metadata.Uuids;
import io.kraft.proto.metadata.BrokerRegistrationChangeRecord;
import io.kraft.proto.metadata.FenceBrokerRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import io.kraft.proto.metadata.UnfenceBrokerRecord;
import io.kraft.proto.metadata.UnregisterBrokerRecord;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Broker registration changes on top of a {@link ClusterImage}. */
public final class ClusterDelta {
    private final ClusterImage image;
    private final MetadataChangeListener listener;
    private final Map<Integer, BrokerRegistration> changedBrokers = new HashMap<>();
    private final Set<Integer> removedBrokers = new HashSet<>();

    public ClusterDelta(ClusterImage image) {
        this(image, MetadataChangeListener.NONE);
    }

    public ClusterDelta(ClusterImage image, MetadataChangeListener listener) {
        this.image = image;
        this.listener = listener;
    }

    public ClusterImage image() {
        return image;
    }

    /** Brokers registered or changed in this delta, by id, in their new state. */
    public Map<Integer, BrokerRegistration> changedBrokers() {
        return Collections.unmodifiableMap(changedBrokers);
    }

    /** Brokers this delta unregistered (and did not register again). */
    public Set<Integer> removedBrokers() {
        return Collections.unmodifiableSet(removedBrokers);
    }

    /** The broker's state including this delta's changes, or null if unknown. */
    public BrokerRegistration broker(int brokerId) {
        BrokerRegistration changed = changedBrokers.get(brokerId);
        return changed != null || removedBrokers.contains(brokerId) ? changed : image.broker(brokerId);
    }

    /** Removes the broker's registration of that epoch. */
    public void replay(UnregisterBrokerRecord record, long offset) {
        BrokerRegistration broker = current(record.getBrokerId(), record.getBrokerEpoch(), "unregistration");
        changedBrokers.remove(broker.id());
        removedBrokers.add(broker.id());
        listener.brokerChanged(broker, null, offset);
    }

    /** Applies a registration found at {@code offset} (the offset tells when a broker has caught up to it). */
    public void replay(RegisterBrokerRecord record, long offset) {
        change(broker(record.getBrokerId()), BrokerRegistration.fromRecord(record), offset);
    }

    public void replay(BrokerRegistrationChangeRecord record, long offset) {
        BrokerRegistration before = current(record.getBrokerId(), record.getBrokerEpoch(), "registration change");
        BrokerRegistration broker = before;
        if (record.hasFenced()) {
            broker = broker.withFenced(record.getFenced());
        }
        if (record.hasInControlledShutdown()) {
            broker = broker.withInControlledShutdown(record.getInControlledShutdown());
        }
        if (record.hasLogDirs()) {
            broker = broker.withLogDirs(record.getLogDirs().getDirectoryIdsList().stream().map(Uuids::fromProto).toList());
        }
        change(before, broker, offset);
    }

    public void replay(FenceBrokerRecord record, long offset) {
        BrokerRegistration broker = current(record.getBrokerId(), record.getBrokerEpoch(), "fence");
        change(broker, broker.withFenced(true), offset);
    }

    public void replay(UnfenceBrokerRecord record, long offset) {
        BrokerRegistration broker = current(record.getBrokerId(), record.getBrokerEpoch(), "unfence");
        // An unfenced broker is no longer shutting down: a restart registers anew, so this is a fresh start.
        change(broker, broker.withFenced(false).withInControlledShutdown(false), offset);
    }

    private void change(BrokerRegistration before, BrokerRegistration after, long offset) {
        changedBrokers.put(after.id(), after);
        removedBrokers.remove(after.id());
        listener.brokerChanged(before, after, offset);
    }

    private BrokerRegistration current(int brokerId, long brokerEpoch, String what) {
        BrokerRegistration broker = broker(brokerId);
        if (broker == null) {
            throw new InvalidMetadataRecordException("Broker " + what + " record for unregistered broker " + brokerId);
        }
        if (broker.epoch() != brokerEpoch) {
            throw new InvalidMetadataRecordException("Broker " + what + " record for broker " + brokerId
                    + " with epoch " + brokerEpoch + " but its registration has epoch " + broker.epoch());
        }
        return broker;
    }

    public ClusterImage apply() {
        if (changedBrokers.isEmpty() && removedBrokers.isEmpty()) {
            return image;
        }
        PersistentMaps.Builder<Integer, BrokerRegistration> brokers = PersistentMaps.edit(image.brokers());
        removedBrokers.forEach(brokers::remove);
        changedBrokers.forEach(brokers::put);
        return new ClusterImage(brokers.build());
    }
}
