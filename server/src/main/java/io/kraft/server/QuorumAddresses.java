package io.kraft.server;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.kraft.broker.network.Listeners;
import io.kraft.proto.raft.DescribeQuorumRequest;
import io.kraft.proto.raft.DescribeQuorumResponse;
import io.kraft.proto.raft.RaftServiceGrpc;
import io.kraft.proto.raft.VoterNode;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.VoterSet;
import io.kraft.raft.grpc.TransportSecurity;
import io.kraft.server.grpc.VoterAddressBook;
import io.kraft.raft.file.BootstrapVotersFile;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The voters' addresses a node starts with: {@code controller.quorum.voters}, or, when the node sets
 * {@code controller.quorum.bootstrap.servers} instead (KIP-853), what it learns before it starts. A controller
 * knows itself (its CONTROLLER listener) and the voters its formatted bootstrap set names; a broker, or a controller
 * formatted without voters, asks the bootstrap servers' describe-quorum for the voters and their endpoints. From then
 * on the voter set in the metadata log keeps the transport's addresses current.
 */
final class QuorumAddresses {
    /** How long a node waits for a bootstrap server to answer before it gives up starting. */
    static final long BOOTSTRAP_WAIT_MS = 120_000;
    private static final long RETRY_MS = 1_000;
    private static final Logger LOG = LoggerFactory.getLogger(QuorumAddresses.class);

    private QuorumAddresses() {
    }

    /**
     * The quorum settings of node {@code nodeId}, with the voters' addresses learned first when needed.
     *
     * @param metadataLogDir a controller's metadata log directory (its formatted voter set), or null for a broker
     * @throws IllegalArgumentException with one line when the settings are invalid or no bootstrap server answered
     */
    static QuorumConfig resolve(int nodeId, Map<String, String> properties, Path metadataLogDir,
                                TransportSecurity security) {
        List<InetSocketAddress> servers = QuorumConfig.bootstrapServers(properties);
        if (servers.isEmpty()) {
            return QuorumConfig.from(properties);
        }
        if (security.isTls()) {
            // A TLS channel checks the certificate of the node it calls, and a bootstrap server's id is not known.
            throw new IllegalArgumentException(QuorumConfig.BOOTSTRAP_SERVERS + " needs a plaintext control plane:"
                    + " with SSL set " + QuorumConfig.VOTERS);
        }
        Map<Integer, InetSocketAddress> voters = new TreeMap<>();
        List<InetSocketAddress> others = new ArrayList<>(servers);
        boolean formattedWithVoters = false;
        if (metadataLogDir != null) {
            InetSocketAddress self = ownControllerAddress(nodeId, properties).orElseThrow(() ->
                    new IllegalArgumentException("a controller with " + QuorumConfig.BOOTSTRAP_SERVERS
                            + " needs a CONTROLLER listener in listeners"));
            Optional<VoterSet> formatted = BootstrapVotersFile.read(metadataLogDir);
            formatted.ifPresent(set -> set.voters().values().stream().filter(v -> !v.endpoint().isEmpty())
                    .forEach(v -> voters.put(v.id(), VoterAddressBook.endpoint(v.endpoint()))));
            // A controller of the initial quorum must not wait for the others: they may be starting too.
            formattedWithVoters = formatted.map(set -> !set.isEmpty()).orElse(false);
            voters.put(nodeId, self);
            others.removeIf(server -> sameAddress(server, self));
        }
        if (!formattedWithVoters && !others.isEmpty()) {
            ask(others, security).forEach(voters::putIfAbsent);
        }
        return QuorumConfig.from(properties, voters);
    }

    /** This node's CONTROLLER listener, where the voters reach it (an empty host: localhost). */
    static Optional<InetSocketAddress> ownControllerAddress(int nodeId, Map<String, String> properties) {
        Listeners listeners = Listeners.parse(properties.getOrDefault(Listeners.LISTENERS, ""), properties);
        return listeners.controllerListeners().stream().findFirst().map(l -> InetSocketAddress.createUnresolved(
                l.host().isEmpty() ? "localhost" : l.host(), l.port()));
    }

    private static boolean sameAddress(InetSocketAddress a, InetSocketAddress b) {
        return a.getPort() == b.getPort() && a.getHostString().equalsIgnoreCase(b.getHostString());
    }

    /** Asks the servers in turn, again every second, until one names the voters. */
    private static Map<Integer, InetSocketAddress> ask(List<InetSocketAddress> servers, TransportSecurity security) {
        long deadline = System.currentTimeMillis() + BOOTSTRAP_WAIT_MS;
        List<String> failures = new ArrayList<>();
        while (true) {
            failures.clear();
            for (InetSocketAddress server : servers) {
                try {
                    Map<Integer, InetSocketAddress> voters = voterNodes(server, security);
                    if (!voters.isEmpty()) {
                        LOG.info("Learned the quorum's voters {} from bootstrap server {}", voters, server);
                        return voters;
                    }
                    failures.add(server + " named no voters");
                } catch (StatusRuntimeException e) {
                    failures.add(server + " (" + e.getStatus().getCode() + ")");
                }
            }
            if (System.currentTimeMillis() >= deadline) {
                throw new IllegalArgumentException("no controller of " + QuorumConfig.BOOTSTRAP_SERVERS + " answered"
                        + " within " + BOOTSTRAP_WAIT_MS / 1000 + " s: " + String.join(", ", failures));
            }
            LOG.info("Waiting for a controller of {} to answer: {}", QuorumConfig.BOOTSTRAP_SERVERS,
                    String.join(", ", failures));
            try {
                Thread.sleep(RETRY_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while asking " + QuorumConfig.BOOTSTRAP_SERVERS, e);
            }
        }
    }

    private static Map<Integer, InetSocketAddress> voterNodes(InetSocketAddress server, TransportSecurity security) {
        ManagedChannel channel = security.channelBuilder(-1, server).build();
        try {
            // No cluster id: describe-quorum answers any, and the Raft calls that follow check it.
            DescribeQuorumResponse answer = RaftServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(5, TimeUnit.SECONDS).describeQuorum(DescribeQuorumRequest.getDefaultInstance());
            Map<Integer, InetSocketAddress> voters = new TreeMap<>();
            for (VoterNode node : answer.getVoterNodesList()) {
                voters.put(node.getNodeId(), InetSocketAddress.createUnresolved(node.getHost(), node.getPort()));
            }
            return voters;
        } finally {
            channel.shutdownNow();
        }
    }
}
