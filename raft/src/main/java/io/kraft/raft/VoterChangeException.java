package io.kraft.raft;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;

/** An AddRaftVoter or RemoveRaftVoter the leader refused, with KIP-853's error code; the voter set is unchanged. */
public final class VoterChangeException extends ApiException {
    public VoterChangeException(Errors error, String message) {
        super(error, message);
    }
}
