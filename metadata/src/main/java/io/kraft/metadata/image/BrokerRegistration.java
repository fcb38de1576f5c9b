package io.kraft.metadata.image;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** A registered broker: its incarnation, epoch, listeners, rack and whether it is fenced or shutting down. */
public record BrokerRegistration(int id, UUID incarnationId, long epoch, List<Endpoint> listeners,
                                 Optional<String> rack, boolean fenced, boolean inControlledShutdown) {
    public BrokerRegistration {
        Objects.requireNonNull(incarnationId, "incarnationId");
        listeners = List.copyOf(listeners);
        Objects.requireNonNull(rack, "rack");
    }

    public static BrokerRegistration fromRecord(RegisterBrokerRecord record) {
        return new BrokerRegistration(record.getBrokerId(), Uuids.fromProto(record.getIncarnationId()),
                record.getBrokerEpoch(), record.getListenersList().stream().map(Endpoint::fromProto).toList(),
                record.hasRack() ? Optional.of(record.getRack()) : Optional.empty(),
                record.getFenced(), record.getInControlledShutdown());
    }

    /** The record that registers exactly this state (used in snapshots). */
    public MetadataRecord toRecord() {
        RegisterBrokerRecord.Builder builder = RegisterBrokerRecord.newBuilder()
                .setBrokerId(id)
                .setIncarnationId(Uuids.toProto(incarnationId))
                .setBrokerEpoch(epoch)
                .setFenced(fenced)
                .setInControlledShutdown(inControlledShutdown);
        listeners.forEach(endpoint -> builder.addListeners(endpoint.toProto()));
        rack.ifPresent(builder::setRack);
        return MetadataRecords.of(builder.build());
    }

    public BrokerRegistration withFenced(boolean newFenced) {
        return new BrokerRegistration(id, incarnationId, epoch, listeners, rack, newFenced, inControlledShutdown);
    }

    public BrokerRegistration withInControlledShutdown(boolean shuttingDown) {
        return new BrokerRegistration(id, incarnationId, epoch, listeners, rack, fenced, shuttingDown);
    }
}
