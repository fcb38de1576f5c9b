package io.kraft.raft.grpc;

import io.grpc.BindableService;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.kraft.proto.raft.BeginQuorumEpochRequest;
import io.kraft.proto.raft.BeginQuorumEpochResponse;
import io.kraft.proto.raft.DescribeQuorumRequest;
import io.kraft.proto.raft.DescribeQuorumResponse;
import io.kraft.proto.raft.EndQuorumEpochRequest;
import io.kraft.proto.raft.EndQuorumEpochResponse;
import io.kraft.proto.raft.FetchRequest;
import io.kraft.proto.raft.FetchResponse;
import io.kraft.proto.raft.FetchSnapshotRequest;
import io.kraft.proto.raft.FetchSnapshotResponse;
import io.kraft.proto.raft.RaftServiceGrpc;
import io.kraft.proto.raft.ReplicaState;
import io.kraft.proto.raft.VoteRequest;
import io.kraft.proto.raft.VoteResponse;
import io.kraft.proto.raft.VoterNode;
import io.kraft.raft.QuorumDescription;
import io.kraft.raft.RaftConfig;
import io.kraft.raft.Voter;
import io.kraft.raft.VoterSet;
import io.kraft.raft.RaftMessage;
import io.kraft.raft.RaftTransport;
import io.kraft.storage.errors.Errors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link RaftTransport} over the gRPC RaftService. A core request becomes an RPC to the destination voter and the
 * RPC's answer becomes the core's response message; on the serving side, an inbound RPC waits until the core
 * emits the matching response (one outstanding call per peer and kind; a newer one supersedes the older).
 * Requests for another cluster or another node are answered with an error and never reach the core.
 */
public final class GrpcRaftTransport implements RaftTransport {
    private static final Logger LOG = LoggerFactory.getLogger(GrpcRaftTransport.class);

    /**
     * Calls one connection may have open at once on the serving side: a member keeps a handful of Raft calls parked
     * and a broker its heartbeat stream plus its ISR changes and forwarded admin requests; more wait at the caller.
     */
    static final int MAX_CONCURRENT_CALLS_PER_CONNECTION = 1_000;

    private enum Kind { VOTE, BEGIN_QUORUM_EPOCH, FETCH, FETCH_SNAPSHOT }

    private record PendingKey(int peerId, Kind kind) {
    }

    private final int nodeId;
    private final String clusterId;
    private final Map<Integer, InetSocketAddress> voterAddresses;
    private final long requestTimeoutMs;
    private final Map<Integer, ManagedChannel> channels = new ConcurrentHashMap<>();
    private final Map<PendingKey, StreamObserver<?>> pendingReplies = new ConcurrentHashMap<>();
    private volatile Consumer<RaftMessage> inbound;
    private volatile IntConsumer unreachablePeer = peerId -> { };
    private volatile Supplier<CompletableFuture<QuorumDescription>> describer;
    private final RaftRequestChecks checks;
    private final RefusalLog refusals;
    private final TransportSecurity security;
    private final SenderCheck senders;
    /** This node's calls the peers refused: a certificate that names another node, or none of the cluster. */
    private final RefusalLog refusedByPeers;
    private Server server;
    private final int listenPort;

    /**
     * @param listenPort the port to serve on (voters), or -1 for a member that only sends (an observer)
     */
    public GrpcRaftTransport(int nodeId, String clusterId, Map<Integer, InetSocketAddress> voterAddresses,
                             int listenPort, long requestTimeoutMs) {
        this(nodeId, clusterId, voterAddresses, listenPort, requestTimeoutMs, List.of());
    }

    /**
     * A voter whose server also serves {@code extraServices} (e.g. the controller's gRPC service), so that one
     * CONTROLLER listener carries the whole control plane. They start and stop with the transport.
     *
     * @param listenPort the port to serve on (voters), or -1 for a member that only sends (an observer)
     * @throws IllegalArgumentException if extra services are given to a member that does not serve
     */
    public GrpcRaftTransport(int nodeId, String clusterId, Map<Integer, InetSocketAddress> voterAddresses,
                             int listenPort, long requestTimeoutMs, List<BindableService> extraServices) {
        this(nodeId, clusterId, voterAddresses, listenPort, requestTimeoutMs, extraServices,
                TransportSecurity.plaintext());
    }

    /**
     * As above, over {@code security}: on mutual TLS every call's peer is authenticated (also for the extra
     * services), and a Raft message must name the authenticated peer as its sender.
     */
    public GrpcRaftTransport(int nodeId, String clusterId, Map<Integer, InetSocketAddress> voterAddresses,
                             int listenPort, long requestTimeoutMs, List<BindableService> extraServices,
                             TransportSecurity security) {
        this.nodeId = nodeId;
        this.security = security;
        this.senders = new SenderCheck(nodeId);
        this.clusterId = clusterId;
        this.voterAddresses = new ConcurrentHashMap<>(voterAddresses);
        this.requestTimeoutMs = requestTimeoutMs;
        this.listenPort = listenPort;
        this.checks = new RaftRequestChecks(nodeId, voterAddresses.keySet());
        this.refusals = new RefusalLog(nodeId);
        this.refusedByPeers = new RefusalLog(nodeId, "%d raft call(s) refused by their peer, which does not take this"
                + " node's certificate for node " + nodeId);
        if (listenPort >= 0) {
            ServerBuilder<?> builder = security.serverBuilder(nodeId, listenPort)
                    .maxInboundMessageSize(RaftConfig.MAX_RPC_BYTES)
                    .addService(new Service());
            if (builder instanceof NettyServerBuilder netty) {
                // HTTP/2's stream limit: a peer's calls beyond it wait on its side instead of queuing here.
                netty.maxConcurrentCallsPerConnection(MAX_CONCURRENT_CALLS_PER_CONNECTION);
            }
            extraServices.forEach(builder::addService);
            this.server = builder.build();
        } else if (!extraServices.isEmpty()) {
            throw new IllegalArgumentException("node " + nodeId + " serves no port (listenPort -1) but was given "
                    + extraServices.size() + " services to serve");
        }
    }

    /** Lets describe-quorum calls be answered (typically by {@code RaftDriver::describe}). */
    @Override
    public void serveDescribeQuorum(Supplier<CompletableFuture<QuorumDescription>> describer) {
        this.describer = describer;
    }

    @Override
    public void start(Consumer<RaftMessage> inbound, IntConsumer unreachablePeer) {
        this.unreachablePeer = unreachablePeer;
        start(inbound);
    }

    @Override
    public void start(Consumer<RaftMessage> inbound) {
        this.inbound = inbound;
        if (server != null) {
            try {
                server.start();
            } catch (IOException e) {
                Throwable cause = e;
                while (cause.getCause() != null) {
                    cause = cause.getCause();
                }
                throw new UncheckedIOException("node " + nodeId + " cannot serve Raft and the controller on its "
                        + "CONTROLLER port " + listenPort + ": " + cause.getMessage(), e);
            }
        }
    }

    /** The port actually bound, or -1 when not serving. */
    public int port() {
        return server == null ? -1 : server.getPort();
    }

    @Override
    public void send(RaftMessage message) {
        if (message instanceof RaftMessage.VoteRequest m) {
            RaftServiceGrpc.RaftServiceStub stub = stub(m.destination());
            if (stub != null) {
                stub.vote(ProtoMessages.toProto(clusterId, m), callback(m.destination(), response -> {
                    if (response.getErrorCode() == ProtoMessages.NONE) {
                        deliver(ProtoMessages.fromProto(response, nodeId));
                    }
                }, () -> unreachablePeer.accept(m.destination())));
            }
        } else if (message instanceof RaftMessage.VoteResponse m) {
            reply(new PendingKey(m.destination(), Kind.VOTE), ProtoMessages.toProto(m));
        } else if (message instanceof RaftMessage.BeginQuorumEpoch m) {
            RaftServiceGrpc.RaftServiceStub stub = stub(m.destination());
            if (stub != null) {
                stub.beginQuorumEpoch(ProtoMessages.toProto(clusterId, m), callback(m.destination(), response -> {
                    if (response.getErrorCode() == ProtoMessages.NONE) {
                        deliver(ProtoMessages.fromProto(response, nodeId));
                    }
                }));
            }
        } else if (message instanceof RaftMessage.BeginQuorumEpochResponse m) {
            reply(new PendingKey(m.destination(), Kind.BEGIN_QUORUM_EPOCH), ProtoMessages.toProto(m));
        } else if (message instanceof RaftMessage.EndQuorumEpoch m) {
            RaftServiceGrpc.RaftServiceStub stub = stub(m.destination());
            if (stub != null) {
                stub.endQuorumEpoch(ProtoMessages.toProto(clusterId, m), callback(m.destination(), response -> { }));
            }
        } else if (message instanceof RaftMessage.FetchRequest m) {
            RaftServiceGrpc.RaftServiceStub stub = stub(m.destination());
            if (stub != null) {
                stub.fetch(ProtoMessages.toProto(clusterId, m), callback(m.destination(), response -> {
                    if (response.getErrorCode() != Errors.INCONSISTENT_CLUSTER_ID.code()
                            && response.getErrorCode() != Errors.INCONSISTENT_VOTER_SET.code()) {
                        deliver(ProtoMessages.fromProto(response, m.destination(), nodeId));
                    }
                }, () -> unreachablePeer.accept(m.destination())));
            }
        } else if (message instanceof RaftMessage.FetchResponse m) {
            reply(new PendingKey(m.destination(), Kind.FETCH), ProtoMessages.toProto(m));
        } else if (message instanceof RaftMessage.FetchSnapshotRequest m) {
            RaftServiceGrpc.RaftServiceStub stub = stub(m.destination());
            if (stub != null) {
                stub.fetchSnapshot(ProtoMessages.toProto(clusterId, m), callback(m.destination(), response -> {
                    if (response.getErrorCode() != Errors.INCONSISTENT_CLUSTER_ID.code()
                            && response.getErrorCode() != Errors.INCONSISTENT_VOTER_SET.code()) {
                        deliver(ProtoMessages.fromProto(response, m.destination(), nodeId));
                    }
                }));
            }
        } else if (message instanceof RaftMessage.FetchSnapshotResponse m) {
            PendingKey key = new PendingKey(m.destination(), Kind.FETCH_SNAPSHOT);
            if (m.lastOfResponse()) {
                reply(key, ProtoMessages.toProto(m));
            } else {
                streamPart(key, ProtoMessages.toProto(m));
            }
        }
    }

    @Override
    public void close() {
        // Pending calls learn first that this node is going away (as a dead process's peers would), then the server
        // stops.
        // Each call is taken out of the map before it is closed, so a request arriving meanwhile that supersedes it
        // (park) or the core's answer (reply) cannot close it a second time.
        for (PendingKey key : List.copyOf(pendingReplies.keySet())) {
            StreamObserver<?> pending = pendingReplies.remove(key);
            if (pending != null) {
                pending.onError(Status.UNAVAILABLE.withDescription("node " + nodeId + " is shutting down")
                        .asRuntimeException());
            }
        }
        if (server != null) {
            server.shutdownNow();
        }
        for (ManagedChannel channel : channels.values()) {
            channel.shutdownNow();
        }
    }

    private void deliver(RaftMessage message) {
        Consumer<RaftMessage> handler = inbound;
        if (handler != null) {
            handler.accept(message);
        }
    }

    /**
     * The voter set changed (KIP-853): voters are addressed at the endpoints the set names from now on (a voter the
     * configuration did not list included), and candidates and leaders are no longer checked against the static list.
     */
    @Override
    public void votersChanged(VoterSet voters) {
        checks.votersMayChange();
        for (Voter voter : voters.voters().values()) {
            if (voter.id() == nodeId || voter.endpoint().isEmpty()) {
                continue;
            }
            InetSocketAddress address = parseEndpoint(voter.endpoint());
            InetSocketAddress previous = voterAddresses.put(voter.id(), address);
            if (previous != null && !previous.equals(address)) {
                ManagedChannel stale = channels.remove(voter.id());
                if (stale != null) {
                    stale.shutdown();
                }
            }
        }
    }

    /** {@code host:port} as a voter's endpoint names it (IPv6 hosts in brackets). */
    static InetSocketAddress parseEndpoint(String endpoint) {
        int colon = endpoint.lastIndexOf(':');
        if (colon <= 0 || colon == endpoint.length() - 1) {
            throw new IllegalArgumentException("voter endpoint '" + endpoint + "' is not host:port");
        }
        String host = endpoint.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return InetSocketAddress.createUnresolved(host, Integer.parseInt(endpoint.substring(colon + 1)));
    }

    private RaftServiceGrpc.RaftServiceStub stub(int destination) {
        InetSocketAddress address = voterAddresses.get(destination);
        if (address == null) {
            return null; // only voters serve requests; nothing else is addressable
        }
        ManagedChannel channel = channels.computeIfAbsent(destination, id -> security.channelBuilder(id, address)
                .maxInboundMessageSize(RaftConfig.MAX_RPC_BYTES).build());
        return RaftServiceGrpc.newStub(channel).withDeadlineAfter(requestTimeoutMs, TimeUnit.MILLISECONDS);
    }

    /**
     * Lets the next message to {@code destination} connect at once. A channel that failed to connect waits out
     * gRPC's exponential reconnect backoff (up to two minutes) and fails every call meanwhile, so a voter restarted
     * after a long stop was unreachable long after it was up, slowing elections and fetches; Raft's own timers
     * already pace the messages, one reconnect attempt each.
     */
    private void reconnectAtOnce(int destination) {
        ManagedChannel channel = channels.get(destination);
        if (channel != null && channel.getState(false) == ConnectivityState.TRANSIENT_FAILURE) {
            channel.resetConnectBackoff();
        }
    }

    @SuppressWarnings("unchecked")
    private <T> void reply(PendingKey key, T response) {
        StreamObserver<T> observer = (StreamObserver<T>) pendingReplies.remove(key);
        if (observer != null) {
            observer.onNext(response);
            observer.onCompleted();
        }
    }

    /** Sends one message of a server stream and keeps the call open for the rest. */
    @SuppressWarnings("unchecked")
    private <T> void streamPart(PendingKey key, T response) {
        StreamObserver<T> observer = (StreamObserver<T>) pendingReplies.get(key);
        if (observer != null) {
            observer.onNext(response);
        }
    }

    private void park(PendingKey key, StreamObserver<?> observer) {
        if (observer instanceof ServerCallStreamObserver<?> call) {
            // A call the caller gave up on (deadline, disconnect) leaves no entry behind: the map holds live calls only.
            call.setOnCancelHandler(() -> pendingReplies.remove(key, observer));
        }
        StreamObserver<?> superseded = pendingReplies.put(key, observer);
        if (superseded != null) {
            // ABORTED, not CANCELLED: the caller must not mistake its own superseded call for a server going away.
            superseded.onError(Status.ABORTED.withDescription("superseded by a newer request from node "
                    + key.peerId()).asRuntimeException());
        }
    }

    private <T> StreamObserver<T> callback(int destination, Consumer<T> onResponse) {
        return callback(destination, onResponse, () -> { });
    }

    /**
     * As above; {@code onUnreachable} runs when the peer could not be reached at all or dropped the call
     * (UNAVAILABLE, or CANCELLED by a server shutting down), as opposed to a slow answer (DEADLINE_EXCEEDED).
     */
    private <T> StreamObserver<T> callback(int destination, Consumer<T> onResponse, Runnable onUnreachable) {
        return new StreamObserver<>() {
            @Override
            public void onNext(T value) {
                onResponse.accept(value);
            }

            @Override
            public void onError(Throwable t) {
                // Raft retries on its own timers; a failed call is just a lost message.
                LOG.debug("node {}: raft RPC failed: {}", nodeId, t.toString());
                Status status = Status.fromThrowable(t);
                Status.Code code = status.getCode();
                if (code == Status.Code.PERMISSION_DENIED || code == Status.Code.UNAUTHENTICATED) {
                    refusedByPeers.refused("to node " + destination, status.getDescription());
                }
                if (code == Status.Code.UNAVAILABLE) {
                    reconnectAtOnce(destination);
                }
                if (code == Status.Code.UNAVAILABLE || code == Status.Code.CANCELLED) {
                    onUnreachable.run();
                }
            }

            @Override
            public void onCompleted() {
            }
        };
    }

    /** Why a request must not reach the core, or null if it may. */
    private String rejection(String requestClusterId, int destination) {
        if (!clusterId.equals(requestClusterId)) {
            return "cluster id '" + requestClusterId + "' does not match '" + clusterId + "'";
        }
        if (destination != nodeId) {
            return "request for node " + destination + " reached node " + nodeId;
        }
        return null;
    }

    /** Logs and reports a request that fails its bounds; false when {@code problem} is null. */
    private boolean refused(String kind, String problem) {
        if (problem == null) {
            return false;
        }
        refusals.refused(kind, problem);
        return true;
    }

    private static int errorFor(String requestClusterId, String clusterId) {
        return clusterId.equals(requestClusterId) ? Errors.INCONSISTENT_VOTER_SET.code()
                : Errors.INCONSISTENT_CLUSTER_ID.code();
    }

    /** The serving side: turns RPCs into inbound core messages and parks the call until the core answers. */
    private final class Service extends RaftServiceGrpc.RaftServiceImplBase {
        @Override
        public void vote(VoteRequest request, StreamObserver<VoteResponse> observer) {
            if (senders.denied(observer, "Vote", request.getCandidateId())) {
                return;
            }
            if (rejection(request.getClusterId(), request.getVoterId()) != null) {
                observer.onNext(VoteResponse.newBuilder().setErrorCode(errorFor(request.getClusterId(), clusterId))
                        .setVoterId(nodeId).setLeaderId(RaftMessage.NO_LEADER).build());
                observer.onCompleted();
                return;
            }
            if (refused("Vote", checks.vote(request))) {
                observer.onNext(VoteResponse.newBuilder().setErrorCode(Errors.INVALID_REQUEST.code())
                        .setVoterId(nodeId).setLeaderId(RaftMessage.NO_LEADER).build());
                observer.onCompleted();
                return;
            }
            park(new PendingKey(request.getCandidateId(), Kind.VOTE), observer);
            deliver(ProtoMessages.fromProto(request));
        }

        @Override
        public void beginQuorumEpoch(BeginQuorumEpochRequest request,
                                     StreamObserver<BeginQuorumEpochResponse> observer) {
            if (senders.denied(observer, "BeginQuorumEpoch", request.getLeaderId())) {
                return;
            }
            if (rejection(request.getClusterId(), request.getVoterId()) != null) {
                observer.onNext(BeginQuorumEpochResponse.newBuilder()
                        .setErrorCode(errorFor(request.getClusterId(), clusterId)).setVoterId(nodeId)
                        .setLeaderId(RaftMessage.NO_LEADER).build());
                observer.onCompleted();
                return;
            }
            if (refused("BeginQuorumEpoch", checks.beginQuorumEpoch(request))) {
                observer.onNext(BeginQuorumEpochResponse.newBuilder().setErrorCode(Errors.INVALID_REQUEST.code())
                        .setVoterId(nodeId).setLeaderId(RaftMessage.NO_LEADER).build());
                observer.onCompleted();
                return;
            }
            park(new PendingKey(request.getLeaderId(), Kind.BEGIN_QUORUM_EPOCH), observer);
            deliver(ProtoMessages.fromProto(request));
        }

        @Override
        public void endQuorumEpoch(EndQuorumEpochRequest request, StreamObserver<EndQuorumEpochResponse> observer) {
            if (senders.denied(observer, "EndQuorumEpoch", request.getLeaderId())) {
                return;
            }
            String rejected = rejection(request.getClusterId(), request.getVoterId());
            EndQuorumEpochResponse.Builder response = EndQuorumEpochResponse.newBuilder()
                    .setLeaderId(RaftMessage.NO_LEADER);
            if (rejected != null) {
                response.setErrorCode(errorFor(request.getClusterId(), clusterId));
            } else if (refused("EndQuorumEpoch", checks.endQuorumEpoch(request))) {
                response.setErrorCode(Errors.INVALID_REQUEST.code());
            } else {
                deliver(ProtoMessages.fromProto(request));
            }
            observer.onNext(response.build());
            observer.onCompleted();
        }

        @Override
        public void fetch(FetchRequest request, StreamObserver<FetchResponse> observer) {
            if (senders.denied(observer, "Fetch", request.getReplicaId())) {
                return;
            }
            if (rejection(request.getClusterId(), request.getLeaderId()) != null) {
                observer.onNext(FetchResponse.newBuilder().setErrorCode(errorFor(request.getClusterId(), clusterId))
                        .setLeaderId(RaftMessage.NO_LEADER).build());
                observer.onCompleted();
                return;
            }
            if (refused("Fetch", checks.fetch(request))) {
                observer.onNext(FetchResponse.newBuilder().setErrorCode(Errors.INVALID_REQUEST.code())
                        .setLeaderId(RaftMessage.NO_LEADER).build());
                observer.onCompleted();
                return;
            }
            park(new PendingKey(request.getReplicaId(), Kind.FETCH), observer);
            deliver(ProtoMessages.fromProto(request));
        }

        /**
         * Streams the chunks the core answers one request with (up to 8 MiB); the receiving core verifies each
         * chunk's CRC32C and, when the stream ends or breaks, asks again from the last byte it stored.
         */
        @Override
        public void fetchSnapshot(FetchSnapshotRequest request, StreamObserver<FetchSnapshotResponse> observer) {
            if (senders.denied(observer, "FetchSnapshot", request.getReplicaId())) {
                return;
            }
            if (rejection(request.getClusterId(), request.getLeaderId()) != null) {
                observer.onNext(FetchSnapshotResponse.newBuilder()
                        .setErrorCode(errorFor(request.getClusterId(), clusterId)).setLeaderId(RaftMessage.NO_LEADER)
                        .build());
                observer.onCompleted();
                return;
            }
            if (!request.hasSnapshotId() || request.getSnapshotId().getEndOffset() < 1
                    || request.getSnapshotId().getEpoch() < 1) {
                observer.onNext(FetchSnapshotResponse.newBuilder().setErrorCode(Errors.SNAPSHOT_NOT_FOUND.code())
                        .setLeaderId(RaftMessage.NO_LEADER).build());
                observer.onCompleted();
                return;
            }
            if (refused("FetchSnapshot", checks.fetchSnapshot(request))) {
                observer.onNext(FetchSnapshotResponse.newBuilder().setErrorCode(Errors.INVALID_REQUEST.code())
                        .setLeaderId(RaftMessage.NO_LEADER).build());
                observer.onCompleted();
                return;
            }
            park(new PendingKey(request.getReplicaId(), Kind.FETCH_SNAPSHOT), observer);
            deliver(ProtoMessages.fromProto(request));
        }

        @Override
        public void describeQuorum(DescribeQuorumRequest request, StreamObserver<DescribeQuorumResponse> observer) {
            Supplier<CompletableFuture<QuorumDescription>> source = describer;
            // Tools ask before they know the cluster id: an empty one matches any cluster.
            boolean sameCluster = request.getClusterId().isEmpty() || clusterId.equals(request.getClusterId());
            if (!sameCluster || source == null) {
                observer.onNext(DescribeQuorumResponse.newBuilder()
                        .setErrorCode(source == null ? Errors.NOT_LEADER_OR_FOLLOWER.code()
                                : Errors.INCONSISTENT_CLUSTER_ID.code()).setLeaderId(RaftMessage.NO_LEADER).build());
                observer.onCompleted();
                return;
            }
            source.get().whenComplete((description, error) -> {
                if (error != null) {
                    observer.onError(Status.UNAVAILABLE.withDescription(error.getMessage()).asRuntimeException());
                    return;
                }
                observer.onNext(toProto(description));
                observer.onCompleted();
            });
        }
    }

    private DescribeQuorumResponse toProto(QuorumDescription description) {
        OptionalInt leader = description.leaderId();
        boolean isLeader = leader.isPresent() && leader.getAsInt() == nodeId;
        DescribeQuorumResponse.Builder builder = DescribeQuorumResponse.newBuilder()
                .setErrorCode(isLeader ? ProtoMessages.NONE : Errors.NOT_LEADER_OR_FOLLOWER.code())
                .setLeaderId(leader.orElse(RaftMessage.NO_LEADER)).setLeaderEpoch(description.epoch())
                .setHighWatermark(description.highWatermark()).setClusterId(clusterId);
        new TreeMap<>(voterAddresses).forEach((voterId, address) -> builder.addVoterNodes(
                VoterNode.newBuilder().setNodeId(voterId).setHost(address.getHostString()).setPort(address.getPort())));
        for (QuorumDescription.Member replica : description.members()) {
            ReplicaState state = ReplicaState.newBuilder().setReplicaId(replica.replicaId())
                    .setLogEndOffset(replica.endOffset()).setLastFetchTimestampMs(replica.lastFetchTimestampMs())
                    .setLastCaughtUpTimestampMs(replica.lastCaughtUpTimestampMs())
                    .setDirectoryId(ProtoMessages.directoryIdToProto(replica.directoryId())).build();
            if (replica.voter()) {
                builder.addVoters(state);
            } else {
                builder.addObservers(state);
            }
        }
        return builder.build();
    }
}
