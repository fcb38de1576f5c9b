package io.kraft.raft.grpc;

import io.grpc.Context;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The authenticated peer of one control-plane call: the principal its verified certificate names, the node it is, if
 * its certificate names one, and whether it is an administrator. A call carries one in its gRPC context only on a TLS
 * control plane; on plaintext there is none and nothing is checked.
 *
 * @param principal the peer's principal as the {@link PeerIdentifier} names it (e.g. {@code User:CN=kraft-node-2})
 * @param nodeId    the node the certificate names, if any
 * @param superUser whether the principal is an administrator's (may make the calls that name no sender node)
 */
public record ControlPlanePeer(String principal, OptionalInt nodeId, boolean superUser) {
    static final Context.Key<ControlPlanePeer> CONTEXT_KEY = Context.key("kraft-control-plane-peer");

    /** The authenticated peer of the call this thread serves; empty on a plaintext control plane. */
    public static Optional<ControlPlanePeer> current() {
        return Optional.ofNullable(CONTEXT_KEY.get());
    }

    /** Whether the peer may call the control plane at all: it is a node of the cluster or an administrator. */
    public boolean mayCall() {
        return nodeId.isPresent() || superUser;
    }

    /** Whether a message naming {@code senderId} as its sender may come from this peer. */
    public boolean is(int senderId) {
        return nodeId.isPresent() && nodeId.getAsInt() == senderId;
    }

    /** The principal, with its node when it names one, for log lines. */
    @Override
    public String toString() {
        return nodeId.isPresent() ? principal + " (node " + nodeId.getAsInt() + ")" : principal;
    }
}
