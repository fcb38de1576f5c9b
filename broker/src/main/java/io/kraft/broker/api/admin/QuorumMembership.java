package io.kraft.broker.api.admin;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Asks the metadata quorum's leader to add or remove a voter (KIP-853), for AddRaftVoter and RemoveRaftVoter, which
 * brokers forward. A refusal fails the future with an {@link ApiException} carrying KIP-853's error code.
 */
public interface QuorumMembership {
    /** A broker that cannot reach the quorum: every change fails. */
    QuorumMembership NONE = new QuorumMembership() {
        @Override
        public CompletableFuture<Void> addVoter(String clusterId, int voterId, UUID directoryId, String endpoint) {
            return unreachable();
        }

        @Override
        public CompletableFuture<Void> removeVoter(String clusterId, int voterId, UUID directoryId) {
            return unreachable();
        }

        private CompletableFuture<Void> unreachable() {
            return CompletableFuture.failedFuture(new ApiException(Errors.NOT_CONTROLLER, "no metadata quorum to ask"));
        }
    };

    /**
     * Adds voter {@code voterId} whose metadata log directory is {@code directoryId}, reached at {@code endpoint}
     * (host:port of its CONTROLLER listener); completes once the new voter set commits.
     *
     * @param clusterId the cluster the caller means, or null for any
     */
    CompletableFuture<Void> addVoter(String clusterId, int voterId, UUID directoryId, String endpoint);

    /** Removes voter {@code voterId} with directory {@code directoryId}; completes once the smaller set commits. */
    CompletableFuture<Void> removeVoter(String clusterId, int voterId, UUID directoryId);
}
