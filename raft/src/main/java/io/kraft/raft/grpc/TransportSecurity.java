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
import java.util.function.IntFunction;

/**
 * How the control plane's gRPC connections are secured, the same for every server and client of a node: plaintext
 * (the default), or mutual TLS where each call's peer is named by its certificate ({@link PeerAuthentication}) and
 * a message's sender must be that peer ({@link SenderCheck}). The credentials are built by the node assembly from its
 * configuration; this module only applies them.
 */
public final class TransportSecurity {
    private static final TransportSecurity PLAINTEXT = new TransportSecurity(InsecureServerCredentials.create(),
            node -> InsecureChannelCredentials.create(), null);

    private final ServerCredentials serverCredentials;
    private final IntFunction<ChannelCredentials> channelCredentials;
    private final PeerIdentifier peers;

    private TransportSecurity(ServerCredentials serverCredentials, IntFunction<ChannelCredentials> channelCredentials,
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
     * @param client the client side calling a node: presents this node's certificate and verifies that the server's
     *               names the node called
     * @param peers  names the peer of each verified certificate
     */
    public static TransportSecurity mutualTls(ServerCredentials server, IntFunction<ChannelCredentials> client,
                                              PeerIdentifier peers) {
        return new TransportSecurity(server, client, Objects.requireNonNull(peers, "peers"));
    }

    /** Whether connections are TLS with authenticated peers. */
    public boolean isTls() {
        return peers != null;
    }

    /**
     * A channel builder for calling node {@code nodeId} at {@code address}: on TLS the server's certificate must
     * name that node (and, as {@code ssl.endpoint.identification.algorithm} asks, the address's host).
     */
    public ManagedChannelBuilder<?> channelBuilder(int nodeId, InetSocketAddress address) {
        return Grpc.newChannelBuilderForAddress(address.getHostString(), address.getPort(),
                channelCredentials.apply(nodeId));
    }

    /**
     * A server builder for {@code port} with these credentials and, on TLS, the peer authentication of node
     * {@code nodeId}.
     */
    public ServerBuilder<?> serverBuilder(int nodeId, int port) {
        ServerBuilder<?> builder = Grpc.newServerBuilderForPort(port, serverCredentials);
        if (peers != null) {
            builder.intercept(new PeerAuthentication(nodeId, peers));
        }
        return builder;
    }
}
