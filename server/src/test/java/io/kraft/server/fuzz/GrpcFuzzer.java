package io.kraft.server.fuzz;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import io.kraft.proto.controller.AllocateProducerIdsRequest;
import io.kraft.proto.controller.AlterPartitionReassignmentsRequest;
import io.kraft.proto.controller.AlterPartitionRequest;
import io.kraft.proto.controller.BrokerHeartbeatRequest;
import io.kraft.proto.controller.ControllerServiceGrpc;
import io.kraft.proto.controller.CreatePartitionsRequest;
import io.kraft.proto.controller.CreateTopicsRequest;
import io.kraft.proto.controller.DeleteTopicsRequest;
import io.kraft.proto.controller.ElectLeadersRequest;
import io.kraft.proto.controller.IncrementalAlterConfigsRequest;
import io.kraft.proto.controller.RegisterBrokerRequest;
import io.kraft.proto.raft.BeginQuorumEpochRequest;
import io.kraft.proto.raft.DescribeQuorumRequest;
import io.kraft.proto.raft.EndQuorumEpochRequest;
import io.kraft.proto.raft.FetchRequest;
import io.kraft.proto.raft.FetchSnapshotRequest;
import io.kraft.proto.raft.RaftServiceGrpc;
import io.kraft.proto.raft.VoteRequest;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sends Raft and controller RPCs with random contents (from their .proto descriptors) to a node's CONTROLLER
 * listener: mostly addressed to it in its own cluster, so they pass the first checks and reach the bounds checks
 * and the core. It never speaks as the node's own broker (that is the authenticated peer's concern, not input
 * validation's) and asks for validation only where a request would change topics. At most 32 calls are in flight.
 */
final class GrpcFuzzer implements AutoCloseable {
    private static final int NODE_ID = 1;
    private final ManagedChannel channel;
    private final String clusterId;
    private final Random random;
    private final Semaphore inFlight = new Semaphore(32);
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();

    GrpcFuzzer(String host, int port, String clusterId, Random random) {
        this.channel = Grpc.newChannelBuilderForAddress(host, port, InsecureChannelCredentials.create()).build();
        this.clusterId = clusterId;
        this.random = random;
    }

    void sendOne() throws InterruptedException {
        inFlight.acquire();
        sent.incrementAndGet();
        RaftServiceGrpc.RaftServiceStub raft = RaftServiceGrpc.newStub(channel).withDeadlineAfter(1, TimeUnit.SECONDS);
        ControllerServiceGrpc.ControllerServiceStub controller = ControllerServiceGrpc.newStub(channel)
                .withDeadlineAfter(1, TimeUnit.SECONDS);
        switch (random.nextInt(16)) {
            case 0 -> raft.vote(addressed(VoteRequest.newBuilder(), "voter_id"), done());
            case 1 -> raft.beginQuorumEpoch(addressed(BeginQuorumEpochRequest.newBuilder(), "voter_id"), done());
            case 2 -> raft.endQuorumEpoch(addressed(EndQuorumEpochRequest.newBuilder(), "voter_id"), done());
            case 3, 4 -> raft.fetch(addressed(FetchRequest.newBuilder(), "leader_id"), done());
            case 5 -> raft.fetchSnapshot(addressed(FetchSnapshotRequest.newBuilder(), "leader_id"), done());
            case 6 -> raft.describeQuorum(addressed(DescribeQuorumRequest.newBuilder(), null), done());
            case 7 -> controller.registerBroker(notAsTheNode(RegisterBrokerRequest.newBuilder()), done());
            case 8 -> {
                StreamObserver<BrokerHeartbeatRequest> stream = controller.brokerHeartbeat(done());
                for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                    stream.onNext(notAsTheNode(BrokerHeartbeatRequest.newBuilder()));
                }
                stream.onCompleted();
            }
            case 9 -> controller.createTopics(notAsTheNode(CreateTopicsRequest.newBuilder()), done());
            case 10 -> controller.deleteTopics(notAsTheNode(DeleteTopicsRequest.newBuilder()), done());
            case 11 -> controller.createPartitions(notAsTheNode(CreatePartitionsRequest.newBuilder()), done());
            case 12 -> controller.alterPartition(notAsTheNode(AlterPartitionRequest.newBuilder()), done());
            // Random topic names: they name no real topic, so these only reach the checks and the refusals.
            case 13 -> controller.electLeaders(notAsTheNode(ElectLeadersRequest.newBuilder()), done());
            case 14 -> controller.alterPartitionReassignments(
                    notAsTheNode(AlterPartitionReassignmentsRequest.newBuilder()), done());
            default -> {
                if (random.nextBoolean()) {
                    controller.incrementalAlterConfigs(notAsTheNode(IncrementalAlterConfigsRequest.newBuilder()),
                            done());
                } else {
                    controller.allocateProducerIds(notAsTheNode(AllocateProducerIdsRequest.newBuilder()), done());
                }
            }
        }
    }

    /** A random request, mostly for this cluster and addressed to the node through {@code destinationField}. */
    @SuppressWarnings("unchecked")
    private <M extends Message> M addressed(Message.Builder builder, String destinationField) {
        RandomProtos.fill(builder, random);
        if (random.nextInt(10) < 8) {
            set(builder, "cluster_id", clusterId);
        }
        if (destinationField != null && random.nextInt(10) < 8) {
            set(builder, destinationField, NODE_ID);
        }
        return (M) builder.build();
    }

    /** A random controller request that neither speaks as the node's broker nor changes topics for real. */
    @SuppressWarnings("unchecked")
    private <M extends Message> M notAsTheNode(Message.Builder builder) {
        RandomProtos.fill(builder, random);
        FieldDescriptor brokerId = builder.getDescriptorForType().findFieldByName("broker_id");
        if (brokerId != null && Integer.valueOf(NODE_ID).equals(builder.getField(brokerId))) {
            builder.setField(brokerId, NODE_ID + 1000);
        }
        set(builder, "validate_only", true);
        return (M) builder.build();
    }

    private static void set(Message.Builder builder, String name, Object value) {
        FieldDescriptor field = builder.getDescriptorForType().findFieldByName(name);
        if (field != null) {
            builder.setField(field, value);
        }
    }

    private <T> StreamObserver<T> done() {
        return new StreamObserver<>() {
            private boolean released;

            @Override
            public void onNext(T value) {
            }

            @Override
            public void onError(Throwable t) {
                release();
            }

            @Override
            public void onCompleted() {
                answered.incrementAndGet();
                release();
            }

            private synchronized void release() {
                if (!released) {
                    released = true;
                    inFlight.release();
                }
            }
        };
    }

    long sent() {
        return sent.get();
    }

    long answered() {
        return answered.get();
    }

    @Override
    public void close() throws InterruptedException {
        inFlight.tryAcquire(32, 5, TimeUnit.SECONDS);
        channel.shutdownNow();
        channel.awaitTermination(5, TimeUnit.SECONDS);
    }
}
