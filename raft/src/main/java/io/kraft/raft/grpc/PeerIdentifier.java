package io.kraft.raft.grpc;

/** Names the control-plane peer a verified TLS certificate stands for; the policy is the node assembly's. */
@FunctionalInterface
public interface PeerIdentifier {
    /**
     * @param subject the certificate's subject distinguished name in RFC 2253 form
     *                (e.g. {@code CN=kraft-node-2,O=acme})
     * @return the peer; one that {@linkplain ControlPlanePeer#mayCall may not call} is refused every call
     */
    ControlPlanePeer identify(String subject);
}
