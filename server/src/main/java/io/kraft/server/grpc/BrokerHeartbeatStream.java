package io.kraft.server.grpc;

import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.controller.BrokerHeartbeatReply;
import io.kraft.metadata.controller.OfflineLogDir;
import io.kraft.metadata.controller.QuorumController;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.proto.controller.BrokerHeartbeatRequest;
import io.kraft.proto.controller.BrokerHeartbeatResponse;
import io.kraft.raft.grpc.ControlPlanePeer;
import io.kraft.raft.grpc.SenderCheck;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker's heartbeat stream on the controller's gRPC service: answers in request order, one heartbeat at a time,
 * and reports the stream's end to the controller as the broker's connection loss.
 */
final class BrokerHeartbeatStream implements StreamObserver<BrokerHeartbeatRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerHeartbeatStream.class);
    private final QuorumController controller;
    private final SenderCheck senders;
    /** Each broker's newest stream (shared by the service's streams). */
    private final ConcurrentHashMap<Integer, BrokerHeartbeatStream> latestStreams;
    private final BiFunction<BrokerHeartbeatReply, Throwable, BrokerHeartbeatResponse> toResponse;
    private final StreamObserver<BrokerHeartbeatResponse> observer;
    /** Who opened the stream, on a TLS control plane: every heartbeat on it must be that broker's. */
    private final Optional<ControlPlanePeer> peer;
    /** The call's flow control, when gRPC serves the stream (tests may call the service directly). */
    private ServerCallStreamObserver<BrokerHeartbeatResponse> call;
    private CompletableFuture<Void> lastSent = CompletableFuture.completedFuture(null);
    private int brokerId = -1;
    private boolean ended;
    // Whether this controller accepted a heartbeat on the stream. A broker probing voters during an election
    // opens and closes streams to controllers that answer NOT_CONTROLLER; if one of them becomes active a moment
    // later, the end of such a stream must not count as the broker's connection loss and fence it.
    private volatile boolean accepted;

    private BrokerHeartbeatStream(StreamObserver<BrokerHeartbeatResponse> observer, Optional<ControlPlanePeer> peer,
                                  QuorumController controller, SenderCheck senders,
                                  ConcurrentHashMap<Integer, BrokerHeartbeatStream> latestStreams,
                                  BiFunction<BrokerHeartbeatReply, Throwable, BrokerHeartbeatResponse> toResponse) {
        this.observer = observer;
        this.peer = peer;
        this.controller = controller;
        this.senders = senders;
        this.latestStreams = latestStreams;
        this.toResponse = toResponse;
    }

    /** The stream a broker opened, reading one heartbeat at a time when gRPC serves it. */
    static BrokerHeartbeatStream open(StreamObserver<BrokerHeartbeatResponse> observer,
                                      Optional<ControlPlanePeer> peer, QuorumController controller,
                                      SenderCheck senders,
                                      ConcurrentHashMap<Integer, BrokerHeartbeatStream> latestStreams,
                                      BiFunction<BrokerHeartbeatReply, Throwable, BrokerHeartbeatResponse> toResponse) {
        BrokerHeartbeatStream stream = new BrokerHeartbeatStream(observer, peer, controller, senders, latestStreams,
                toResponse);
        if (observer instanceof ServerCallStreamObserver<BrokerHeartbeatResponse> call) {
            // One heartbeat of a stream at a time reaches the controller: the next is read once this one is answered,
            // so a stream that floods heartbeats waits in gRPC's flow control instead of the controller's queue.
            call.disableAutoRequest();
            stream.call = call;
            call.request(1);
        }
        return stream;
    }

    @Override
    public synchronized void onNext(BrokerHeartbeatRequest request) {
        StatusRuntimeException refusal = senders.refusal("BrokerHeartbeat", request.getBrokerId(), peer);
        if (refusal != null) {
            end();
            observer.onError(refusal);
            return;
        }
        try {
            ControllerRequestChecks.brokerIdAndEpoch(request.getBrokerId(), request.getBrokerEpoch());
        } catch (IllegalArgumentException e) {
            send(toResponse.apply(null, ControllerGrpcService.invalid(e)));
            requestNext();
            return;
        }
        if (brokerId != request.getBrokerId()) {
            if (brokerId >= 0) {
                latestStreams.remove(brokerId, this);
            }
            brokerId = request.getBrokerId();
        }
        latestStreams.put(brokerId, this);
        CompletableFuture<BrokerHeartbeatReply> answer = controller.heartbeat(
                new io.kraft.metadata.controller.BrokerHeartbeatRequest(request.getBrokerId(),
                        request.getBrokerEpoch(), request.getCurrentMetadataOffset(), request.getWantFence(),
                        request.getWantShutDown(), offlineLogDirs(request)));
        // A heartbeat without records answers at once and could overtake one waiting for its commit.
        lastSent = lastSent.thenCompose(ignored -> answer.handle((reply, failure) -> {
            if (failure == null) {
                accepted = true;
            }
            send(toResponse.apply(reply, failure));
            requestNext();
            return null;
        }));
    }

    private synchronized void requestNext() {
        if (call != null && !ended) {
            call.request(1);
        }
    }

    private synchronized void send(BrokerHeartbeatResponse response) {
        if (!ended) {
            observer.onNext(response);
        }
    }

    @Override
    public synchronized void onError(Throwable t) {
        end();
    }

    @Override
    public synchronized void onCompleted() {
        end();
        lastSent.whenComplete((ignored, failure) -> {
            synchronized (this) {
                observer.onCompleted();
            }
        });
    }

    private void end() {
        if (ended) {
            return;
        }
        ended = true;
        if (brokerId >= 0 && latestStreams.remove(brokerId, this)) {
            if (accepted) {
                LOG.info("Broker {}'s heartbeat stream to controller {} ended", brokerId, controller.nodeId());
                controller.connectionClosed(brokerId);
            } else {
                LOG.debug("Broker {}'s heartbeat stream to controller {} ended before any heartbeat on it was "
                        + "accepted", brokerId, controller.nodeId());
            }
        }
    }

    private static List<OfflineLogDir> offlineLogDirs(BrokerHeartbeatRequest request) {
        return request.getOfflineLogDirsList().stream().map(dir -> new OfflineLogDir(
                Uuids.fromProto(dir.getDirectoryId()), dir.getPartitionsList().stream()
                        .map(p -> new TopicIdPartition(Uuids.fromProto(p.getTopicId()), p.getPartitionId())).toList()))
                .toList();
    }
}
