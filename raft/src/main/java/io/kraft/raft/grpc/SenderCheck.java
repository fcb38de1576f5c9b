package io.kraft.raft.grpc;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.Optional;

/**
 * On a TLS control plane, a message naming its sender (a vote's candidate, a fetch's replica, a broker's
 * registration) must come from that node: the authenticated peer's certificate must name it. A message that claims
 * another node is refused with PERMISSION_DENIED before it changes anything, and logged (the peer and the node it
 * claimed). On plaintext there is no peer to check and every message passes. Thread-safe.
 */
public final class SenderCheck {
    private final RefusalLog refusals;

    public SenderCheck(int nodeId) {
        this.refusals = new RefusalLog(nodeId,
                "refused %d control-plane call(s) whose sender is not the authenticated peer");
    }

    /**
     * Checks the peer of the call being served.
     *
     * @param call     the call's name, for the log line (e.g. {@code Vote})
     * @param senderId the node the message names as its sender
     * @return null when the message may go on, else the status to end the call with
     */
    public StatusRuntimeException refusal(String call, int senderId) {
        // No Optional here: on plaintext every Raft fetch passes through this with no peer.
        ControlPlanePeer peer = ControlPlanePeer.CONTEXT_KEY.get();
        return peer == null ? null : refusal(call, senderId, peer);
    }

    /**
     * Ends the call being served with PERMISSION_DENIED if its message names another sender than its peer.
     *
     * @return whether it was ended; false when the message may go on
     */
    public boolean denied(StreamObserver<?> observer, String call, int senderId) {
        StatusRuntimeException refusal = refusal(call, senderId);
        if (refusal == null) {
            return false;
        }
        observer.onError(refusal);
        return true;
    }

    /** As {@link #refusal(String, int)}, for a peer captured earlier (the opener of a stream). */
    public StatusRuntimeException refusal(String call, int senderId, Optional<ControlPlanePeer> peer) {
        return peer.isEmpty() ? null : refusal(call, senderId, peer.get());
    }

    private StatusRuntimeException refusal(String call, int senderId, ControlPlanePeer peer) {
        if (peer.is(senderId)) {
            return null;
        }
        String problem = "peer " + peer + " claimed to be node " + senderId;
        refusals.refused(call, problem);
        return Status.PERMISSION_DENIED.withDescription(call + " refused: " + problem).asRuntimeException();
    }
}
