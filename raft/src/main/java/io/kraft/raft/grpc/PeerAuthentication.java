package io.kraft.raft.grpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * The TLS control plane's gate: each call's peer is named from its verified client certificate; a peer that is no
 * node of the cluster and no administrator is refused (PERMISSION_DENIED) before the call reaches a service, and any
 * other call runs with its {@link ControlPlanePeer} in the gRPC context, where the services check the sender a
 * message names ({@link SenderCheck}).
 */
final class PeerAuthentication implements ServerInterceptor {
    private final PeerIdentifier identifier;
    private final RefusalLog refusals;

    PeerAuthentication(int nodeId, PeerIdentifier identifier) {
        this.identifier = identifier;
        this.refusals = new RefusalLog(nodeId,
                "refused %d control-plane call(s) from peers that are no node of the cluster");
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                      ServerCallHandler<Q, R> next) {
        SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
        String subject = subject(session);
        ControlPlanePeer peer = subject == null ? null : identifier.identify(subject);
        if (peer == null || !peer.mayCall()) {
            String who = peer == null ? "a peer without a verified certificate"
                    : "peer " + peer.principal() + ", which names no node and is no super user";
            String problem = who + " at " + call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
            refusals.refused(call.getMethodDescriptor().getBareMethodName(), problem);
            call.close((peer == null ? Status.UNAUTHENTICATED : Status.PERMISSION_DENIED).withDescription(problem),
                    new Metadata());
            return new ServerCall.Listener<>() {
            };
        }
        return Contexts.interceptCall(Context.current().withValue(ControlPlanePeer.CONTEXT_KEY, peer), call, headers,
                next);
    }

    private static String subject(SSLSession session) {
        if (session == null) {
            return null;
        }
        try {
            return session.getPeerPrincipal().getName();
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
    }
}
