package io.kraft.metadata.controller;

import io.kraft.metadata.image.PartitionRegistration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** What the replication manager needs to know about brokers: who is registered and who may hold replicas. */
public interface BrokerLiveness {
    /** A broker that may lead and join ISRs: registered, unfenced and not shutting down. */
    record UsableBroker(int id, Optional<String> rack) {
    }

    boolean isRegistered(int brokerId);

    /** Registered, unfenced and not in controlled shutdown. */
    boolean isUsable(int brokerId);

    /** The current broker epoch, or -1 if the broker is not registered. */
    long brokerEpoch(int brokerId);

    /** Every usable broker, by ascending id. */
    List<UsableBroker> usableBrokers();

    /** Whether the registered broker has log directory {@code directoryId} online (KIP-858). */
    boolean isLogDirOnline(int brokerId, UUID directoryId);

    /** Whether the broker may lead the partition: it is usable and its replica's log directory, if known, online. */
    default boolean mayLead(PartitionRegistration partition, int brokerId) {
        if (!isUsable(brokerId)) {
            return false;
        }
        Optional<UUID> directory = partition.directoryOf(brokerId);
        return directory.isEmpty() || isLogDirOnline(brokerId, directory.get());
    }
}
