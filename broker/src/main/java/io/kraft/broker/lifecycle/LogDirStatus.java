package io.kraft.broker.lifecycle;

import io.kraft.metadata.controller.BrokerRegistrationRequest;
import io.kraft.metadata.controller.OfflineLogDir;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** What a broker tells the controller about its log directories (KIP-858): the replica manager knows. */
public interface LogDirStatus {
    /** A broker that names no log directories. */
    LogDirStatus NONE = new LogDirStatus() {
        @Override
        public List<UUID> onlineLogDirs() {
            return List.of();
        }

        @Override
        public Map<Path, UUID> failedLogDirs() {
            return Map.of();
        }

        @Override
        public List<OfflineLogDir> offlineLogDirs() {
            return List.of();
        }
    };

    /** The ids of the online directories, sent with a registration. */
    List<UUID> onlineLogDirs();

    /** The failed directories, by path, with their ids. */
    Map<Path, UUID> failedLogDirs();

    /** The failed directories with the partitions the controller does not yet know were there, for a heartbeat. */
    List<OfflineLogDir> offlineLogDirs();

    /**
     * The broker epoch the previous process shut down cleanly with, -1 after an unclean shutdown (KIP-966), or
     * {@link BrokerRegistrationRequest#PREVIOUS_EPOCH_UNKNOWN} when not known.
     */
    default long previousBrokerEpoch() {
        return BrokerRegistrationRequest.PREVIOUS_EPOCH_UNKNOWN;
    }
}
