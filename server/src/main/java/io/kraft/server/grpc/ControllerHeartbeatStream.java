package io.kraft.server.grpc;

import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.kraft.proto.controller.BrokerHeartbeatResponse;
import io.kraft.proto.controller.ControllerServiceGrpc;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One broker-heartbeat stream from a broker to one controller: answers come back in request order. */
final class ControllerHeartbeatStream implements StreamObserver<BrokerHeartbeatResponse> {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerHeartbeatStream.class);

    private final int controllerId;
    private final Consumer<ControllerHeartbeatStream> onBroke;
    private final StreamObserver<io.kraft.proto.controller.BrokerHeartbeatRequest> requests;
    private final ArrayDeque<CompletableFuture<BrokerHeartbeatResponse>> waiting = new ArrayDeque<>();
    private boolean answeredOnce;
    private boolean ended;
    private boolean closedByUs;

    /** @param onBroke hears that a stream which had been answered broke (not closed by this side) */
    ControllerHeartbeatStream(int controllerId, Channel channel, Consumer<ControllerHeartbeatStream> onBroke) {
        this.controllerId = controllerId;
        this.onBroke = onBroke;
        this.requests = ControllerServiceGrpc.newStub(channel).brokerHeartbeat(this);
    }

    int controllerId() {
        return controllerId;
    }

    synchronized boolean ended() {
        return ended;
    }

    CompletableFuture<BrokerHeartbeatResponse> send(io.kraft.proto.controller.BrokerHeartbeatRequest request) {
        CompletableFuture<BrokerHeartbeatResponse> answer = new CompletableFuture<>();
        synchronized (this) {
            if (!ended) {
                waiting.add(answer);
                requests.onNext(request);
                return answer;
            }
        }
        answer.completeExceptionally(Status.UNAVAILABLE.withDescription("heartbeat stream to controller "
                + controllerId + " has ended").asRuntimeException());
        return answer;
    }

    @Override
    public void onNext(BrokerHeartbeatResponse response) {
        CompletableFuture<BrokerHeartbeatResponse> answer;
        synchronized (this) {
            answeredOnce = true;
            answer = waiting.poll();
        }
        if (answer != null) {
            answer.complete(response);
        }
    }

    @Override
    public void onError(Throwable t) {
        end(t);
    }

    @Override
    public void onCompleted() {
        end(Status.UNAVAILABLE.withDescription("controller " + controllerId + " ended the heartbeat stream")
                .asRuntimeException());
    }

    /** Half-closes the stream from this side (the broker moved to another controller or shuts down). */
    void close() {
        synchronized (this) {
            if (ended) {
                return;
            }
            closedByUs = true;
            requests.onCompleted();
        }
        end(Status.CANCELLED.withDescription("heartbeat stream to controller " + controllerId + " closed")
                .asRuntimeException());
    }

    private void end(Throwable cause) {
        List<CompletableFuture<BrokerHeartbeatResponse>> failed;
        boolean broke;
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            failed = new ArrayList<>(waiting);
            waiting.clear();
            broke = answeredOnce && !closedByUs;
        }
        // Complete outside the lock: a failed answer may retry, which opens another stream.
        failed.forEach(answer -> answer.completeExceptionally(cause));
        if (broke) {
            LOG.info("Heartbeat stream to controller {} broke: {}", controllerId, cause.toString());
            onBroke.accept(this);
        }
    }
}
