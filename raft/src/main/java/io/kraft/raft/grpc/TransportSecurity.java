package io.kraft.raft.grpc;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannelBuilder;
import io.grpc.ServerBuilder;
import io.grpc.ServerCredentials;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * How the control plane's gRPC connections are secured, the same for every server and client of a node: plaintext
 * (the default), or mutual TLS where each call's peer is named by its certificate ({@link PeerAuthentication}) and
 * a message's sender must be that peer ({@link SenderCheck}). The credentials are built by the node assembly from its
 * configuration; this module only applies them.
 */
public final class TransportSecurity {
    private static final TransportSecurity PLAINTEXT = new TransportSecurity(InsecureServerCredentials.create(),
            InsecureChannelCredentials.create(), null);

    private final ServerCredentials serverCredentials;
    private final ChannelCredentials channelCredentials;
    private final PeerIdentifier peers;

    private TransportSecurity(ServerCredentials serverCredentials, ChannelCredentials channelCredentials,
                              PeerIdentifier peers) {
        this.serverCredentials = serverCredentials;
        this.channelCredentials = channelCredentials;
        this.peers = peers;
    }

    /** No TLS, no peer checks. */
    public static TransportSecurity plaintext() {
        return PLAINTEXT;
    }

    /**
     * Mutual TLS.
     *
     * @param server a server side that requires and verifies client certificates
     * @param client a client side that presents this node's certificate and verifies the server's
     * @param peers  names the peer of each verified certificate
     */
    public static TransportSecurity mutualTls(ServerCredentials server, ChannelCredentials client, PeerIdentifier peers) {
        return new TransportSecurity(server, client, Objects.requireNonNull(peers, "peers"));
    }

    /** Whether connections are TLS with authenticated peers. */
    public boolean isTls() {
        return peers != null;
    }

    /** What clients connect with. */
    public ChannelCredentials channelCredentials() {
        return channelCredentials;
    }

    /** A channel builder for {@code address} with these credentials (the host is what a TLS client verifies). */
    public ManagedChannelBuilder<?> channelBuilder(InetSocketAddress address) {
        return Grpc.newChannelBuilderForAddress(address.getHostString(), address.getPort(), channelCredentials);
    }

    /** A server builder for {@code port} with these credentials and, on TLS, the peer authentication of node {@code nodeId}. */
    public ServerBuilder<?> serverBuilder(int nodeId, int port) {
        ServerBuilder<?> builder = Grpc.newServerBuilderForPort(port, serverCredentials);
        if (peers != null) {
            builder.intercept(new PeerAuthentication(nodeId, peers));
        }
        return builder;
    }
}
