package io.kraft.metadata.image;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A registered broker: its incarnation, epoch, listeners, rack, whether it is fenced or shutting down, and the ids of
 * its online log directories (KIP-858; empty for a broker that reported none).
 */
public record BrokerRegistration(int id, UUID incarnationId, long epoch, List<Endpoint> listeners,
                                 Optional<String> rack, boolean fenced, boolean inControlledShutdown,
                                 List<UUID> logDirs) {
    public BrokerRegistration {
        Objects.requireNonNull(incarnationId, "incarnationId");
        listeners = List.copyOf(listeners);
        Objects.requireNonNull(rack, "rack");
        logDirs = List.copyOf(logDirs);
    }

    /** A registration without log directories. */
    public BrokerRegistration(int id, UUID incarnationId, long epoch, List<Endpoint> listeners, Optional<String> rack,
                              boolean fenced, boolean inControlledShutdown) {
        this(id, incarnationId, epoch, listeners, rack, fenced, inControlledShutdown, List.of());
    }

    public static BrokerRegistration fromRecord(RegisterBrokerRecord record) {
        return new BrokerRegistration(record.getBrokerId(), Uuids.fromProto(record.getIncarnationId()),
                record.getBrokerEpoch(), record.getListenersList().stream().map(Endpoint::fromProto).toList(),
                record.hasRack() ? Optional.of(record.getRack()) : Optional.empty(),
                record.getFenced(), record.getInControlledShutdown(),
                record.getLogDirsList().stream().map(Uuids::fromProto).toList());
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
        logDirs.forEach(dir -> builder.addLogDirs(Uuids.toProto(dir)));
        return MetadataRecords.of(builder.build());
    }

    public BrokerRegistration withFenced(boolean newFenced) {
        return new BrokerRegistration(id, incarnationId, epoch, listeners, rack, newFenced, inControlledShutdown,
                logDirs);
    }

    public BrokerRegistration withInControlledShutdown(boolean shuttingDown) {
        return new BrokerRegistration(id, incarnationId, epoch, listeners, rack, fenced, shuttingDown, logDirs);
    }

    public BrokerRegistration withLogDirs(List<UUID> onlineLogDirs) {
        return new BrokerRegistration(id, incarnationId, epoch, listeners, rack, fenced, inControlledShutdown,
                onlineLogDirs);
    }
}
