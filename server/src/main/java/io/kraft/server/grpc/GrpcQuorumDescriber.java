package io.kraft.server.grpc;

import io.grpc.stub.StreamObserver;
import io.kraft.broker.api.admin.QuorumDescriber;
import io.kraft.proto.raft.DescribeQuorumRequest;
import io.kraft.proto.raft.DescribeQuorumResponse;
import io.kraft.proto.raft.RaftServiceGrpc;
import io.kraft.proto.raft.ReplicaState;
import io.kraft.raft.QuorumDescription;
import io.kraft.raft.Voter;
import io.kraft.raft.grpc.TransportSecurity;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Describes the metadata quorum for a broker's DescribeQuorum by asking the leader this node knows of over the
 * CONTROLLER listener (RaftService.DescribeQuorum, the call {@code kraft-cli quorum describe} makes); only the leader
 * knows every member's progress. One channel per voter, opened at first use.
 */
public final class GrpcQuorumDescriber implements QuorumDescriber, AutoCloseable {
    /** A voter change waits for the new voter's catch-up check and the commit: the admin clients' default wait. */
    static final long VOTER_CHANGE_DEADLINE_MS = 30_000;

    private final LeaderChannels leaders;
    private final GrpcQuorumMembership membership;
    private final String clusterId;
    private final long deadlineMs;

    public GrpcQuorumDescriber(Map<Integer, InetSocketAddress> voters, Supplier<OptionalInt> leaderId,
                               String clusterId, long deadlineMs) {
        this(voters, leaderId, clusterId, deadlineMs, TransportSecurity.plaintext());
    }

    /** As above, connecting with {@code security} (the node's control-plane TLS and certificate). */
    public GrpcQuorumDescriber(Map<Integer, InetSocketAddress> voters, Supplier<OptionalInt> leaderId,
                               String clusterId, long deadlineMs, TransportSecurity security) {
        this.leaders = new LeaderChannels(voters, leaderId, security);
        this.membership = new GrpcQuorumMembership(leaders, clusterId, VOTER_CHANGE_DEADLINE_MS);
        this.clusterId = clusterId;
        this.deadlineMs = deadlineMs;
    }

    @Override
    public CompletableFuture<QuorumDescription> describe() {
        OptionalInt leader = leaders.leader();
        if (leader.isEmpty()) {
            return CompletableFuture.failedFuture(new IllegalStateException("the metadata quorum has no leader now"));
        }
        int leaderNode = leader.getAsInt();
        CompletableFuture<QuorumDescription> answer = new CompletableFuture<>();
        RaftServiceGrpc.newStub(leaders.channel(leaderNode)).withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS)
                .describeQuorum(DescribeQuorumRequest.newBuilder().setClusterId(clusterId).build(),
                        new StreamObserver<>() {
                            @Override
                            public void onNext(DescribeQuorumResponse response) {
                                if (response.getErrorCode() != 0) {
                                    answer.completeExceptionally(new IllegalStateException("controller " + leaderNode
                                            + " answered with error code " + response.getErrorCode()));
                                } else {
                                    answer.complete(toDescription(response));
                                }
                            }

                            @Override
                            public void onError(Throwable error) {
                                answer.completeExceptionally(error);
                            }

                            @Override
                            public void onCompleted() {
                                answer.completeExceptionally(new IllegalStateException("controller " + leaderNode
                                        + " sent no description"));
                            }
                        });
        return answer;
    }

    /** Takes in the voter set's endpoints (KIP-853), so a voter added later is asked once it leads. */
    public void votersChanged(io.kraft.raft.VoterSet voters) {
        leaders.votersChanged(voters);
    }

    /** Voter changes through the same channels to the leader, closed with this describer. */
    public GrpcQuorumMembership membership() {
        return membership;
    }

    @Override
    public Map<Integer, InetSocketAddress> voters() {
        return leaders.voters();
    }

    private static QuorumDescription toDescription(DescribeQuorumResponse response) {
        List<QuorumDescription.Member> members = new ArrayList<>();
        for (ReplicaState voter : response.getVotersList()) {
            members.add(member(voter, true));
        }
        for (ReplicaState observer : response.getObserversList()) {
            members.add(member(observer, false));
        }
        OptionalInt leader = response.getLeaderId() < 0 ? OptionalInt.empty() : OptionalInt.of(response.getLeaderId());
        return new QuorumDescription(leader, response.getLeaderEpoch(), response.getHighWatermark(), members);
    }

    private static QuorumDescription.Member member(ReplicaState state, boolean voter) {
        return new QuorumDescription.Member(state.getReplicaId(), voter, state.getLogEndOffset(),
                state.getLastFetchTimestampMs(), state.getLastCaughtUpTimestampMs(),
                Voter.directoryFromBytes(state.getDirectoryId().toByteArray()));
    }

    @Override
    public void close() {
        leaders.close();
    }
}
