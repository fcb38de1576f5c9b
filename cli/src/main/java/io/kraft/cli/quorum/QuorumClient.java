package io.kraft.cli.quorum;

import io.grpc.Grpc;
import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import com.google.protobuf.ByteString;
import io.kraft.proto.membership.QuorumMembershipServiceGrpc;
import io.kraft.proto.membership.VoterChangeRequest;
import io.kraft.proto.membership.VoterChangeResponse;
import io.kraft.proto.raft.DescribeQuorumRequest;
import io.kraft.proto.raft.DescribeQuorumResponse;
import io.kraft.proto.raft.RaftServiceGrpc;
import io.kraft.proto.raft.ReplicaState;
import io.kraft.proto.raft.VoterNode;
import io.kraft.raft.Voter;
import io.kraft.storage.MetaProperties;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Describes the metadata quorum through a controller's RaftService: asks the bootstrap controllers in turn until
 * one answers, and when the one that answers is not the leader, asks the leader it names (only the leader knows
 * every member's position).
 */
public final class QuorumClient {
    /** Kafka's error code for "not the leader", which a follower answers describe-quorum with. */
    static final int NOT_LEADER_OR_FOLLOWER = 6;
    private static final int NONE = 0;
    /** A voter change waits for the new voter's catch-up check and the commit. */
    static final long VOTER_CHANGE_TIMEOUT_MS = 60_000;

    private final List<HostPort> bootstrapControllers;
    private final long timeoutMs;
    private final ChannelCredentials credentials;

    /** A controller's CONTROLLER listener address. */
    public record HostPort(String host, int port) {
        /**
         * Parses {@code HOST:PORT} (an IPv6 host in brackets).
         *
         * @throws IllegalArgumentException naming the text when it is not of that form
         */
        public static HostPort parse(String text) {
            String trimmed = text.trim();
            int colon = trimmed.lastIndexOf(':');
            if (colon <= 0 || colon == trimmed.length() - 1) {
                throw new IllegalArgumentException("'" + text + "' is not of the form HOST:PORT");
            }
            String host = trimmed.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(trimmed.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' is not of the form HOST:PORT");
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port " + port + " in '" + text + "' is not between 1 and 65535");
            }
            return new HostPort(host, port);
        }

        @Override
        public String toString() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    /** @param timeoutMs how long each RPC may take, connecting included */
    public QuorumClient(List<HostPort> bootstrapControllers, long timeoutMs) {
        this(bootstrapControllers, timeoutMs, InsecureChannelCredentials.create());
    }

    /**
     * @param timeoutMs   how long each RPC may take, connecting included
     * @param credentials how to connect (TLS with a certificate when the control plane is SSL)
     */
    public QuorumClient(List<HostPort> bootstrapControllers, long timeoutMs, ChannelCredentials credentials) {
        this.credentials = credentials;
        if (bootstrapControllers.isEmpty()) {
            throw new IllegalArgumentException("at least one bootstrap controller is needed");
        }
        this.bootstrapControllers = List.copyOf(bootstrapControllers);
        this.timeoutMs = timeoutMs;
    }

    /**
     * The quorum as the leader describes it.
     *
     * @throws ControllerUnreachableException if no bootstrap controller (or the leader one named) answers
     * @throws QuorumUnavailableException     if the quorum has no leader or the leader cannot describe it
     */
    public QuorumInfo describe() {
        return toInfo(leader().answer());
    }

    /** What the leader said and where it listens. */
    private record LeaderAnswer(HostPort at, DescribeQuorumResponse answer) {
    }

    /** A voter change KIP-853 allows: the call the leader serves. */
    public enum VoterChange { ADD, REMOVE }

    /**
     * Asks the leader to add or remove voter {@code voterId} with metadata log directory {@code directoryId}
     * ({@code endpoint}, host:port, for an add) and waits until the new voter set commits.
     *
     * @throws ControllerUnreachableException if no bootstrap controller (or the leader) answers
     * @throws QuorumUnavailableException     if the quorum has no leader, or the leader refuses (the message says why)
     */
    public void changeVoters(VoterChange change, int voterId, java.util.UUID directoryId, String endpoint) {
        LeaderAnswer leader = leader();
        VoterChangeRequest request = VoterChangeRequest.newBuilder().setClusterId(leader.answer().getClusterId())
                .setVoterId(voterId).setDirectoryId(ByteString.copyFrom(Voter.directoryBytes(directoryId)))
                .setEndpoint(endpoint == null ? "" : endpoint).build();
        ManagedChannel channel = Grpc.newChannelBuilderForAddress(leader.at().host(), leader.at().port(), credentials)
                .build();
        VoterChangeResponse response;
        try {
            var stub = QuorumMembershipServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(VOTER_CHANGE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            response = change == VoterChange.ADD ? stub.addVoter(request) : stub.removeVoter(request);
        } catch (StatusRuntimeException e) {
            throw new ControllerUnreachableException("cannot reach the leader at " + leader.at() + " (" + oneLine(e)
                    + ")");
        } finally {
            channel.shutdownNow();
        }
        if (response.getErrorCode() != NONE) {
            throw new QuorumUnavailableException("the leader refused: " + Errors.forCode((short) response.getErrorCode())
                    + ": " + response.getErrorMessage());
        }
    }

    private LeaderAnswer leader() {
        DescribeQuorumResponse answer = null;
        HostPort answered = null;
        List<String> failures = new ArrayList<>();
        for (HostPort controller : bootstrapControllers) {
            try {
                answer = ask(controller);
                answered = controller;
                break;
            } catch (StatusRuntimeException e) {
                failures.add(controller + " (" + oneLine(e) + ")");
            }
        }
        if (answer == null) {
            throw new ControllerUnreachableException("cannot reach controller at " + String.join(", ", failures));
        }
        if (answer.getErrorCode() == NOT_LEADER_OR_FOLLOWER && answer.getLeaderId() >= 0) {
            Optional<HostPort> leader = leaderAddress(answer);
            if (leader.isEmpty()) {
                throw new QuorumUnavailableException("controller " + answered + " names node " + answer.getLeaderId()
                        + " as the leader but not its address");
            }
            answered = leader.get();
            try {
                answer = ask(answered);
            } catch (StatusRuntimeException e) {
                throw new ControllerUnreachableException("cannot reach controller at " + answered + " ("
                        + oneLine(e) + "), the leader named by the bootstrap controller");
            }
        }
        if (answer.getErrorCode() == NOT_LEADER_OR_FOLLOWER) {
            throw new QuorumUnavailableException("the metadata quorum has no leader at the moment (controller "
                    + answered + " is in epoch " + answer.getLeaderEpoch() + "): try again shortly");
        }
        if (answer.getErrorCode() != NONE) {
            throw new QuorumUnavailableException("controller " + answered + " answered describe-quorum with error code "
                    + answer.getErrorCode());
        }
        return new LeaderAnswer(answered, answer);
    }

    private DescribeQuorumResponse ask(HostPort controller) {
        ManagedChannel channel = Grpc.newChannelBuilderForAddress(controller.host(), controller.port(), credentials)
                .build();
        try {
            // No cluster id: a tool learns it from the answer.
            return RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS)
                    .describeQuorum(DescribeQuorumRequest.getDefaultInstance());
        } finally {
            channel.shutdownNow();
        }
    }

    private static Optional<HostPort> leaderAddress(DescribeQuorumResponse answer) {
        for (VoterNode node : answer.getVoterNodesList()) {
            if (node.getNodeId() == answer.getLeaderId()) {
                return Optional.of(new HostPort(node.getHost(), node.getPort()));
            }
        }
        return Optional.empty();
    }

    private static QuorumInfo toInfo(DescribeQuorumResponse answer) {
        return new QuorumInfo(answer.getClusterId(), answer.getLeaderId(), answer.getLeaderEpoch(),
                answer.getHighWatermark(), replicas(answer.getVotersList()), replicas(answer.getObserversList()));
    }

    private static List<QuorumInfo.Replica> replicas(List<ReplicaState> states) {
        return states.stream().map(s -> new QuorumInfo.Replica(s.getReplicaId(),
                MetaProperties.toKafkaUuid(Voter.directoryFromBytes(s.getDirectoryId().toByteArray())),
                s.getLogEndOffset(), s.getLastFetchTimestampMs(), s.getLastCaughtUpTimestampMs())).toList();
    }

    /** The status and what went wrong underneath: gRPC's own description of a refused connection is "io exception". */
    private static String oneLine(StatusRuntimeException e) {
        Throwable root = e.getCause();
        while (root != null && root.getCause() != null) {
            root = root.getCause();
        }
        String detail = root != null && root.getMessage() != null ? root.getMessage() : e.getStatus().getDescription();
        String text = e.getStatus().getCode() + (detail == null ? "" : ": " + detail);
        return text.replace('\n', ' ').replace('\r', ' ');
    }
}
